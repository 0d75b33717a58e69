// Code lowered by the GPUX pipeline against the same gpu* calls written by
// hand, on the same driver and the same framework-owned immediate list:
//  - GpuxLowered: one call of _mlir_ciface_vector_add (examples/kernels/
//    gpux_vector_add.mlir, lowered with stream-from-argument): gpuModuleLoad
//    and gpuKernelGet at its entry, then gpuLaunchKernel + gpuWait, as
//    convert-gpux-to-llvm emits them;
//  - GpuxHandWritten: gpuModuleLoad + gpuKernelGet + gpuLaunchKernel (three
//    ParamDesc) + gpuWait written in C, with an OpenCL C add kernel of the
//    same signature and launch shape (16 groups of 64);
//  - GpuxEntry (absolute): entering the lowered function without launching
//    (_mlir_ciface_maybe_add with launch = false): what wrapping the
//    framework's stream and reaching the launch costs per call.
#include "bench_common.hpp"

#include "imex_gpu_runtime.h"

#include <cstdint>

namespace {

constexpr int64_t kN = 1024;

struct Memref1d {
    float *allocated;
    float *aligned;
    int64_t offset;
    int64_t sizes[1];
    int64_t strides[1];
};

} // namespace

extern "C" void _mlir_ciface_vector_add(void *stream, Memref1d *a, Memref1d *b, Memref1d *c);
extern "C" void _mlir_ciface_maybe_add(void *stream, Memref1d *a, Memref1d *b, Memref1d *c,
                                       bool launch);

namespace {

struct Setup {
    bench::ZeSetup ze;
    std::string spirv = bench::readFile(std::string(IMEX_BENCH_GPUX_SPIRV));
    float *a = nullptr, *b = nullptr, *c = nullptr;
    void *stream = nullptr;
    Memref1d A{}, B{}, C{};

    Setup() {
        ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t h = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        for (float **p : {&a, &b, &c})
            BENCH_ZE(zeMemAllocShared(ze.context, &d, &h, kN * sizeof(float), 64, ze.device,
                                      reinterpret_cast<void **>(p)));
        A = {a, a, 0, {kN}, {1}};
        B = {b, b, 0, {kN}, {1}};
        C = {c, c, 0, {kN}, {1}};
        const imex_gpu_l0_stream_t user = {ze.list, ze.device, ze.context};
        stream = gpuCreateStreamFromUser(&user);
    }
    ~Setup() {
        gpuStreamDestroy(stream);
        for (float *p : {a, b, c})
            zeMemFree(ze.context, p);
    }
};

Setup &setup() {
    static Setup s;
    return s;
}

void GpuxLowered(benchmark::State &state) {
    Setup &s = setup();
    _mlir_ciface_vector_add(s.stream, &s.A, &s.B, &s.C); // PoCL compiles at the first launch
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state)
            _mlir_ciface_vector_add(s.stream, &s.A, &s.B, &s.C);
    }
}

void GpuxHandWritten(benchmark::State &state) {
    Setup &s = setup();
    float *a = s.a, *b = s.b, *c = s.c;
    ParamDesc params[] = {{&a, sizeof a}, {&b, sizeof b}, {&c, sizeof c}, {nullptr, 0}};
    auto once = [&] {
        void *m = gpuModuleLoad(s.stream, s.spirv.data(), s.spirv.size());
        void *k = gpuKernelGet(s.stream, m, "add");
        gpuLaunchKernel(s.stream, k, 16, 1, 1, 64, 1, 1, 0, params, nullptr);
        gpuWait(s.stream);
    };
    once();
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state)
            once();
    }
}

void GpuxEntry(benchmark::State &state) {
    Setup &s = setup();
    _mlir_ciface_maybe_add(s.stream, &s.A, &s.B, &s.C, false);
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state)
            _mlir_ciface_maybe_add(s.stream, &s.A, &s.B, &s.C, false);
    }
}

} // namespace

BENCHMARK(GpuxHandWritten)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(GpuxLowered)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(GpuxEntry)->UseRealTime()->Unit(benchmark::kNanosecond);

int main(int argc, char **argv) {
    using bench::Metric;
    bench::useBuiltDriver();
    setup();
    return bench::runWithSummary(argc, argv,
                                 {
                                     {"GpuxLowered", "GpuxHandWritten", 1.02, Metric::cpuTime},
                                     {"GpuxEntry", "", 1e-6, Metric::cpuTime},
                                 });
}
