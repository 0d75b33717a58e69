// A copy from one GPU's memory to another's through Level Zero on
// libze_cuda.so against cuMemcpyPeerAsync with peer access enabled, on a
// machine of two NVIDIA GPUs or more (scripts/gpu_check.sh runs it on the
// lent ones; with fewer it says it skipped). Both sides copy 256 MiB of
// device 0's memory into device 1's and wait for it each iteration:
//  - Copy_CudaPeer: cuMemcpyPeerAsync on a non-blocking stream of device 1,
//    cuStreamSynchronize; Copy_CudaUnified: the same with cuMemcpyAsync (the
//    unified addresses alone), for information;
//  - Copy_L0: zeCommandListAppendMemoryCopy on an immediate list of device 1,
//    the list's barrier, event and host wait.
// The target is bandwidth: Copy_L0 at >= 0.95x the CUDA copy's.
#include "bench_common.hpp"

#include "cuda_bench.hpp"

namespace {

using namespace ze_cuda;

constexpr size_t kBytes = size_t(256) << 20;

const CudaApi *api = nullptr;

void checkCu(CUresult r, const char *what) {
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) {
        std::fprintf(stderr, "%s: %s\n", what, api->describe(r).c_str());
        std::abort();
    }
}

struct RawCuda {
    CUcontext context[2] = {};
    CUdeviceptr buffer[2] = {};
    CUstream stream = nullptr;
    RawCuda() {
        for (int d = 0; d < 2; ++d) {
            CUdevice device = 0;
            checkCu(api->cuDeviceGet(&device, d), "cuDeviceGet");
            checkCu(api->cuDevicePrimaryCtxRetain(&context[d], device), "cuDevicePrimaryCtxRetain");
        }
        for (int d = 0; d < 2; ++d) {
            checkCu(api->cuCtxSetCurrent(context[d]), "cuCtxSetCurrent");
            checkCu(api->cuCtxEnablePeerAccess(context[1 - d], 0), "cuCtxEnablePeerAccess");
            checkCu(api->cuMemAlloc(&buffer[d], kBytes), "cuMemAlloc");
            checkCu(api->cuMemsetD8Async(buffer[d], uint8_t(d + 1), kBytes, nullptr),
                    "cuMemsetD8Async");
            checkCu(api->cuCtxSynchronize(), "cuCtxSynchronize");
        }
        checkCu(api->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    }
    void copy() {
        checkCu(
            api->cuMemcpyPeerAsync(buffer[1], context[1], buffer[0], context[0], kBytes, stream),
            "cuMemcpyPeerAsync");
        checkCu(api->cuStreamSynchronize(stream), "cuStreamSynchronize");
    }
    // The same copy named by unified addresses alone (cuMemcpyAsync).
    void copyUnified() {
        checkCu(api->cuMemcpyAsync(buffer[1], buffer[0], kBytes, stream), "cuMemcpyAsync");
        checkCu(api->cuStreamSynchronize(stream), "cuStreamSynchronize");
    }
};

RawCuda &raw() {
    static RawCuda r;
    return r;
}

// The Level Zero side: device memory on both devices of libze_cuda.so, an
// immediate list of device 1.
struct L0 {
    bench::ZeSetup ze; // device 0's context and list (the context has both devices)
    ze_device_handle_t devices[2] = {};
    void *buffer[2] = {};
    ze_command_list_handle_t list = nullptr;
    L0() {
        uint32_t count = 2;
        BENCH_ZE(zeDeviceGet(ze.driver, &count, devices));
        ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        for (int d = 0; d < 2; ++d)
            BENCH_ZE(zeMemAllocDevice(ze.context, &desc, kBytes, 0, devices[d], &buffer[d]));
        ze_command_queue_desc_t queueDesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        queueDesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
        BENCH_ZE(zeCommandListCreateImmediate(ze.context, devices[1], &queueDesc, &list));
        const uint8_t one = 1;
        BENCH_ZE(
            zeCommandListAppendMemoryFill(list, buffer[0], &one, 1, kBytes, nullptr, 0, nullptr));
        sync();
    }
    void sync() {
        BENCH_ZE(zeCommandListAppendBarrier(list, ze.syncEvent, 0, nullptr));
        BENCH_ZE(zeEventHostSynchronize(ze.syncEvent, UINT64_MAX));
        BENCH_ZE(zeEventHostReset(ze.syncEvent));
    }
    void copy() {
        BENCH_ZE(
            zeCommandListAppendMemoryCopy(list, buffer[1], buffer[0], kBytes, nullptr, 0, nullptr));
        sync();
    }
};

void Copy_CudaPeer(benchmark::State &state) {
    for (auto _ : state)
        raw().copy();
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kBytes));
}

void Copy_CudaUnified(benchmark::State &state) {
    for (auto _ : state)
        raw().copyUnified();
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kBytes));
}

void Copy_L0(benchmark::State &state) {
    static L0 l0;
    for (auto _ : state)
        l0.copy();
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(kBytes));
}

} // namespace

BENCHMARK(Copy_CudaPeer)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(Copy_CudaUnified)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(Copy_L0)->UseRealTime()->Unit(benchmark::kMillisecond);

int main(int argc, char **argv) {
    using bench::Metric;
    api = bench::cudaWithGpus(2);
    if (api == nullptr)
        return 0;
    bench::useBuiltDriver();
    return bench::runWithSummary(
        argc, argv,
        {{"Copy_L0", "Copy_CudaPeer", 0.95, Metric::realTime, /*higherIsBetter=*/true},
         {"Copy_CudaUnified", "Copy_CudaPeer", 0, Metric::realTime, /*higherIsBetter=*/true}});
}
