// A framework that holds a sycl::queue runs OpenCL C compiled by the library
// on that queue, between its own SYCL commands (imex_l0_sycl.hpp,
// docs/sycl.md). The queue is in order and over a Level Zero immediate
// list (UR_L0_USE_IMMEDIATE_COMMANDLISTS=1), so the library's launch takes
// its place in the queue's order with no event. Run with a SYCL runtime
// whose Level Zero backend sees a GPU; prints the result and checks it.
#include "imex_l0_sycl.hpp"

#include <cstdio>
#include <vector>

static const char *kSaxpy = R"CL(
kernel void saxpy(global float *y, global const float *x, float a) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
)CL";

int main() try {
    constexpr size_t n = 1 << 16;
    // The framework's own queue and memory.
    sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order{}};
    // (Host code without -fsycl: copies, not SYCL's kernel-based fill.)
    std::vector<float> ones(n, 1.0f), twos(n, 2.0f);
    float *x = sycl::malloc_device<float>(n, q);
    float *y = sycl::malloc_device<float>(n, q);
    q.memcpy(x, ones.data(), n * sizeof(float));
    q.memcpy(y, twos.data(), n * sizeof(float));

    // The library over the queue: engine, stream, a kernel from OpenCL C.
    imex_l0::engine engine = imex_l0::sycl_interop::make_engine(q);
    imex_l0::stream stream = imex_l0::sycl_interop::make_stream(engine, q);
    auto saxpy = imex_l0::kernel::from_source(engine, kSaxpy, "saxpy");
    const float a = 3.0f;
    saxpy.execute(stream, {imex_l0::arg::usm(y), imex_l0::arg::usm(x), imex_l0::arg::value(a)},
                  {{n, 1, 1}, {0, 0, 0}}, {}, false);

    // The framework's next command reads what the launch wrote.
    std::vector<float> result(n);
    q.memcpy(result.data(), y, n * sizeof(float)).wait();
    size_t wrong = 0;
    for (float v : result)
        wrong += v != a * 1.0f + 2.0f;
    std::printf("sycl_framework: saxpy of %zu elements on %s: y[0] = %g, %zu wrong\n", n,
                engine.device_name().c_str(), result[0], wrong);
    sycl::free(x, q);
    sycl::free(y, q);
    return wrong == 0 ? 0 : 1;
} catch (const std::exception &e) {
    std::fprintf(stderr, "sycl_framework: %s\n", e.what());
    return 1;
}
