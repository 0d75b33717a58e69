// ze_cuda_gpu_check <dir>: runs PTX made by the CUDA backend's translation
// (ze_cuda_ptx) on the machine's NVIDIA GPU, through the driver API loaded at
// run time, and checks every result against the host:
//   <dir>/gpu_kernels.ptx  tests/gpu_runtime/kernels/gpu_kernels.cl: add, and
//                          group_sum, whose __local argument is an offset into
//                          the launch's dynamic shared memory;
//   <dir>/triad.ptx        benchmarks/kernels/triad.cl (double STREAM triad);
//   <dir>/triad_nvcc.ptx   the same triad in CUDA C, compiled by nvcc: the
//                          bandwidth baseline, measured side by side.
// Prints one line per check and per figure; exits 1 on a wrong result, 2 when
// there is no GPU or an input is missing.
#include "cuda_api.hpp"
#include "launch_values.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace ze_cuda;

const CudaApi *cu = nullptr;

// Translated kernels take the launch values after their arguments
// (launch_values.hpp): those of a one-dimensional launch without a global
// offset here. nvcc's kernels ignore the extra entries.
LaunchValues oneDimensional;
std::vector<void *> withLaunchValues(std::initializer_list<void *> arguments) {
    std::vector<void *> params(arguments);
    params.resize(arguments.size() + LaunchValues::kCount);
    oneDimensional.pointTo(params.data() + arguments.size());
    return params;
}

void check(CUresult r, const char *what) {
    if (r == CUDA_SUCCESS)
        return;
    std::fprintf(stderr, "%s failed: %s\n", what, cu->describe(r).c_str());
    std::exit(1);
}

CUmodule load(const std::string &path) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        std::exit(2);
    }
    std::string ptx{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    char log[8192] = {};
    int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {log, reinterpret_cast<void *>(sizeof log)};
    CUmodule module = nullptr;
    auto start = std::chrono::steady_clock::now();
    CUresult r = cu->cuModuleLoadDataEx(&module, ptx.c_str(), 2, options, values);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    if (r != CUDA_SUCCESS) {
        std::fprintf(stderr, "cuModuleLoadDataEx(%s): %s\n%s\n", path.c_str(),
                     cu->describe(r).c_str(), log);
        std::exit(1);
    }
    std::printf("load %s: %.1f ms (PTX JIT)\n", path.c_str(), ms);
    return module;
}

CUfunction function(CUmodule module, const char *name) {
    CUfunction f = nullptr;
    check(cu->cuModuleGetFunction(&f, module, name), name);
    return f;
}

int failures = 0;
void expect(bool ok, const char *what) {
    std::printf("%s: %s\n", what, ok ? "ok" : "WRONG");
    failures += ok ? 0 : 1;
}

void checkAdd(CUmodule module) {
    constexpr size_t n = 1 << 20;
    std::vector<float> a(n), b(n), c(n, -1.0f);
    for (size_t i = 0; i < n; ++i) {
        a[i] = float(i);
        b[i] = 0.5f * float(i);
    }
    CUdeviceptr da, db, dc;
    check(cu->cuMemAlloc(&da, n * 4), "cuMemAlloc");
    check(cu->cuMemAlloc(&db, n * 4), "cuMemAlloc");
    check(cu->cuMemAlloc(&dc, n * 4), "cuMemAlloc");
    check(cu->cuMemcpyHtoD(da, a.data(), n * 4), "cuMemcpyHtoD");
    check(cu->cuMemcpyHtoD(db, b.data(), n * 4), "cuMemcpyHtoD");
    std::vector<void *> args = withLaunchValues({&da, &db, &dc});
    check(cu->cuLaunchKernel(function(module, "add"), n / 256, 1, 1, 256, 1, 1, 0, nullptr,
                             args.data(), nullptr),
          "cuLaunchKernel(add)");
    check(cu->cuMemcpyDtoH(c.data(), dc, n * 4), "cuMemcpyDtoH");
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i)
        ok = c[i] == a[i] + b[i];
    expect(ok, "add (2^20 floats, device memory)");
    for (CUdeviceptr p : {da, db, dc})
        cu->cuMemFree(p);
}

void checkGroupSum(CUmodule module) {
    constexpr unsigned groups = 512, group = 256;
    std::vector<int> in(groups * group), out(groups, -1);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = int(i % 7);
    CUdeviceptr din, dout;
    check(cu->cuMemAlloc(&din, in.size() * 4), "cuMemAlloc");
    check(cu->cuMemAlloc(&dout, out.size() * 4), "cuMemAlloc");
    check(cu->cuMemcpyHtoD(din, in.data(), in.size() * 4), "cuMemcpyHtoD");
    unsigned long long scratchOffset = 0; // the only __local argument: at 0
    std::vector<void *> args = withLaunchValues({&din, &dout, &scratchOffset});
    check(cu->cuLaunchKernel(function(module, "group_sum"), groups, 1, 1, group, 1, 1,
                             group * sizeof(int), nullptr, args.data(), nullptr),
          "cuLaunchKernel(group_sum)");
    check(cu->cuMemcpyDtoH(out.data(), dout, out.size() * 4), "cuMemcpyDtoH");
    bool ok = true;
    for (unsigned g = 0; g < groups && ok; ++g) {
        int expected = 0;
        for (unsigned i = g * group; i < (g + 1) * group; ++i)
            expected += int(i % 7);
        ok = out[g] == expected;
    }
    expect(ok, "group_sum (local memory as dynamic shared memory, barriers)");
    cu->cuMemFree(din);
    cu->cuMemFree(dout);
}

// Best of `repeats` timed runs of `launches` triads: GB/s of 3 arrays.
double triadBandwidth(CUfunction triad, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, size_t n) {
    double s = 3.0;
    std::vector<void *> args = withLaunchValues({&a, &b, &c, &s});
    CUevent start, stop;
    check(cu->cuEventCreate(&start, 0), "cuEventCreate");
    check(cu->cuEventCreate(&stop, 0), "cuEventCreate");
    constexpr unsigned block = 256;
    constexpr int launches = 20, repeats = 5;
    double best = 0;
    for (int r = 0; r < repeats; ++r) {
        check(cu->cuEventRecord(start, nullptr), "cuEventRecord");
        for (int i = 0; i < launches; ++i)
            check(cu->cuLaunchKernel(triad, unsigned(n / block), 1, 1, block, 1, 1, 0, nullptr,
                                     args.data(), nullptr),
                  "cuLaunchKernel(triad)");
        check(cu->cuEventRecord(stop, nullptr), "cuEventRecord");
        check(cu->cuEventSynchronize(stop), "cuEventSynchronize");
        float ms = 0;
        check(cu->cuEventElapsedTime(&ms, start, stop), "cuEventElapsedTime");
        double gbs = 3.0 * 8.0 * double(n) * launches / (double(ms) * 1e6);
        best = gbs > best ? gbs : best;
    }
    cu->cuEventDestroy(start);
    cu->cuEventDestroy(stop);
    return best;
}

void checkTriad(CUmodule ours, CUmodule nvcc) {
    constexpr size_t n = size_t(1) << 27; // 1 GiB per array
    CUdeviceptr a, b, c;
    check(cu->cuMemAlloc(&a, n * 8), "cuMemAlloc");
    check(cu->cuMemAlloc(&b, n * 8), "cuMemAlloc");
    check(cu->cuMemAlloc(&c, n * 8), "cuMemAlloc");
    std::vector<double> hb(n), hc(n);
    for (size_t i = 0; i < n; ++i) {
        hb[i] = double(i % 1000);
        hc[i] = 0.25 * double(i % 17);
    }
    check(cu->cuMemcpyHtoD(b, hb.data(), n * 8), "cuMemcpyHtoD");
    check(cu->cuMemcpyHtoD(c, hc.data(), n * 8), "cuMemcpyHtoD");
    CUfunction f = function(ours, "triad"), g = function(nvcc, "triad");
    // Interleaved, so that clocks and temperature treat both alike.
    double oursGbs = 0, nvccGbs = 0;
    for (int round = 0; round < 3; ++round) {
        oursGbs = std::max(oursGbs, triadBandwidth(f, a, b, c, n));
        nvccGbs = std::max(nvccGbs, triadBandwidth(g, a, b, c, n));
    }
    std::vector<double> ha(n);
    check(cu->cuMemcpyDtoH(ha.data(), a, n * 8), "cuMemcpyDtoH");
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i)
        ok = ha[i] == hb[i] + 3.0 * hc[i];
    expect(ok, "triad (2^27 doubles)");
    std::printf("triad bandwidth: ours %.0f GB/s, nvcc %.0f GB/s, ratio %.3f\n", oursGbs, nvccGbs,
                oursGbs / nvccGbs);
    for (CUdeviceptr p : {a, b, c})
        cu->cuMemFree(p);
}

void launchCost(CUmodule ours) {
    CUfunction add = function(ours, "add");
    CUdeviceptr buffer;
    check(cu->cuMemAlloc(&buffer, 256 * 4), "cuMemAlloc");
    std::vector<void *> args = withLaunchValues({&buffer, &buffer, &buffer});
    constexpr int n = 20000;
    for (int i = 0; i < 1000; ++i)
        cu->cuLaunchKernel(add, 1, 1, 1, 256, 1, 1, 0, nullptr, args.data(), nullptr);
    check(cu->cuCtxSynchronize(), "cuCtxSynchronize");
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
        cu->cuLaunchKernel(add, 1, 1, 1, 256, 1, 1, 0, nullptr, args.data(), nullptr);
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                    .count() /
                n;
    check(cu->cuCtxSynchronize(), "cuCtxSynchronize");
    std::printf("cuLaunchKernel host cost: %.2f us per launch (%d small launches)\n", us, n);
    cu->cuMemFree(buffer);
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <dir with gpu_kernels.ptx, triad.ptx, triad_nvcc.ptx>\n",
                     argv[0]);
        return 2;
    }
    std::string why;
    cu = loadCudaApi(&why);
    if (!cu) {
        std::printf("skipped: no NVIDIA GPU: %s\n", why.c_str());
        return 2;
    }
    check(cu->cuInit(0), "cuInit");
    int count = 0;
    check(cu->cuDeviceGetCount(&count), "cuDeviceGetCount");
    if (count == 0) {
        std::printf("skipped: no NVIDIA GPU (cuDeviceGetCount is 0)\n");
        return 2;
    }
    CUdevice device;
    check(cu->cuDeviceGet(&device, 0), "cuDeviceGet");
    char name[256] = {};
    cu->cuDeviceGetName(name, sizeof name, device);
    int major = 0, minor = 0;
    cu->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    cu->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    std::printf("device: %s, sm_%d%d\n", name, major, minor);
    CUcontext context;
    check(cu->cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    check(cu->cuCtxSetCurrent(context), "cuCtxSetCurrent");
    std::string dir = argv[1];
    CUmodule kernels = load(dir + "/gpu_kernels.ptx");
    CUmodule triad = load(dir + "/triad.ptx");
    CUmodule triadNvcc = load(dir + "/triad_nvcc.ptx");
    checkAdd(kernels);
    checkGroupSum(kernels);
    checkTriad(triad, triadNvcc);
    launchCost(kernels);
    cu->cuModuleUnload(kernels);
    cu->cuModuleUnload(triad);
    cu->cuModuleUnload(triadNvcc);
    cu->cuDevicePrimaryCtxRelease(device);
    return failures ? 1 : 0;
}
