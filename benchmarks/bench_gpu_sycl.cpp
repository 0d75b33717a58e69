// The SYCL flavour's gpuLaunchKernel (libimex_gpu_sycl.so) against the plain
// SYCL submission it makes: handler::set_args + parallel_for of the same
// SPIR-V kernel (a kernel bundle from SPIR-V, the kernel_compiler
// extension) on the same in-order queue, the stream made over that queue.
// Both launch an empty kernel with four USM pointer arguments and wait every
// kBatch launches (queue::wait, gpuWait). Host cost per launch is the target.
//
// Run it with the SYCL environment (build/benchmarks/run_bench_gpu_sycl.sh).
#include "bench_common.hpp"

#include "imex_gpu_sycl_runtime.h"

#include <sycl/sycl.hpp>

#include <array>
#include <cstddef>

namespace {

namespace syclex = sycl::ext::oneapi::experimental;

constexpr size_t kArgs = 4;

struct Setup {
    sycl::queue queue{sycl::gpu_selector_v, sycl::property::queue::in_order{}};
    std::string spirv = bench::readFile(std::string(IMEX_BENCH_SPIRV_DIR) + "/empty.spv");
    std::array<int *, kArgs> buffers{};
    void *stream = nullptr;

    Setup() {
        for (int *&b : buffers)
            b = sycl::malloc_device<int>(16, queue);
        stream = gpuCreateStreamFromSyclQueue(&queue);
    }
    ~Setup() {
        gpuStreamDestroy(stream);
        for (int *b : buffers)
            sycl::free(b, queue);
    }
};

Setup &setup() {
    static Setup s;
    return s;
}

void Launch_SyclSubmit(benchmark::State &state) {
    Setup &s = setup();
    const auto *begin = reinterpret_cast<const std::byte *>(s.spirv.data());
    std::vector<std::byte> bytes(begin, begin + s.spirv.size());
    auto source = syclex::create_kernel_bundle_from_source(s.queue.get_context(),
                                                           syclex::source_language::spirv, bytes);
    auto bundle = syclex::build(source);
    sycl::kernel kernel = bundle.ext_oneapi_get_kernel("empty4");
    auto [a, b, c, d] = s.buffers;
    const sycl::nd_range<3> range({1, 1, 1}, {1, 1, 1});
    bench::launchLoop(
        state, __func__,
        [&] {
            s.queue.submit([&](sycl::handler &h) {
                h.set_args(a, b, c, d);
                h.parallel_for(range, kernel);
            });
        },
        [&] { s.queue.wait(); });
}

void Launch_GpuLaunchKernel(benchmark::State &state) {
    Setup &s = setup();
    void *module = gpuModuleLoad(s.stream, s.spirv.data(), s.spirv.size());
    void *kernel = gpuKernelGet(s.stream, module, "empty4");
    std::array<ParamDesc, kArgs + 1> params{};
    for (size_t i = 0; i < kArgs; ++i)
        params[i] = {&s.buffers[i], sizeof(int *)};
    bench::launchLoop(
        state, __func__,
        [&] { gpuLaunchKernel(s.stream, kernel, 1, 1, 1, 1, 1, 1, 0, params.data(), nullptr); },
        [&] { gpuWait(s.stream); });
}

} // namespace

BENCHMARK(Launch_SyclSubmit)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_GpuLaunchKernel)->UseRealTime()->Unit(benchmark::kMicrosecond);

int main(int argc, char **argv) {
    using bench::Metric;
    bench::useBuiltDriver();
    setup();
    return bench::runWithSummary(
        argc, argv, {{"Launch_GpuLaunchKernel", "Launch_SyclSubmit", 1.10, Metric::cpuTime}});
}
