"""dpnp (NumPy on SYCL) on the project's Level Zero driver: elementwise
functions, reductions and sorts on a device of SYCL's Level Zero backend,
each compared with NumPy on the host. Exits 1 if any differs or fails.

oneMKL's functions (matmul, fft, linalg) are not checked: oneMKL refuses
devices that are not Intel GPUs ("Unexpected MKL exception").
"""
import sys

import dpctl
import dpnp
import numpy as np

queue = dpctl.SyclQueue("level_zero:gpu")
print(f"device: {queue.sycl_device.name} ({queue.sycl_device.backend})")


def device(host):
    return dpnp.asarray(host, sycl_queue=queue)


rng = np.random.default_rng(7)
ramp = np.arange(10000, dtype=np.float32)
normal = rng.standard_normal(100000).astype(np.float32)
integers = rng.integers(-1000, 1000, 50000).astype(np.int64)
x = device(ramp)

# Each check: (name, computed on the device, expected on the host, how to compare).
exact = np.array_equal


def close(rtol, atol=0.0):
    return lambda a, b: np.allclose(a, b, rtol=rtol, atol=atol)


checks = [
    # elementwise
    ("arange", lambda: dpnp.arange(100, sycl_queue=queue), np.arange(100), exact),
    ("add", lambda: x + x, ramp + ramp, exact),
    ("multiply", lambda: x * 3.5, ramp * 3.5, exact),
    ("sin", lambda: dpnp.sin(x), np.sin(ramp), close(0, 1e-5)),
    ("exp", lambda: dpnp.exp(x / 10000), np.exp(ramp / 10000), close(1e-6)),
    ("sqrt", lambda: dpnp.sqrt(x), np.sqrt(ramp), close(1e-6)),
    ("where", lambda: dpnp.where(x > 5000, x, -x), np.where(ramp > 5000, ramp, -ramp), exact),
    # reductions (float32 sums: the order of a device's reduction is its own)
    ("sum", lambda: dpnp.sum(x), ramp.sum(dtype=np.float64), close(1e-4)),
    ("mean", lambda: dpnp.mean(x), ramp.mean(dtype=np.float64), close(1e-4)),
    ("max", lambda: dpnp.max(x), ramp.max(), exact),
    ("argmax", lambda: dpnp.argmax(device(normal)), normal.argmax(), exact),
    ("cumsum", lambda: dpnp.cumsum(dpnp.ones(1000, dtype=dpnp.int32, sycl_queue=queue)),
     np.arange(1, 1001), exact),
    # sorts
    ("sort", lambda: dpnp.sort(device(normal)), np.sort(normal), exact),
    ("argsort", lambda: device(normal)[dpnp.argsort(device(normal))], np.sort(normal), exact),
    ("sort_int64", lambda: dpnp.sort(device(integers)), np.sort(integers), exact),
    ("unique", lambda: dpnp.unique(device(integers)), np.unique(integers), exact),
]

failed = []
for name, compute, expected, same in checks:
    try:
        got = dpnp.asnumpy(compute())
        ok = same(got, expected)
        print(f"{name:12s} {'ok' if ok else 'DIFFERS'}")
    except Exception as error:  # report every check, then fail
        ok = False
        print(f"{name:12s} FAILED: {str(error).splitlines()[0]}")
    if not ok:
        failed.append(name)
print(f"dpnp: {len(checks) - len(failed)} of {len(checks)} checks pass")
sys.exit(1 if failed else 0)
