#include "cuda_api.hpp"

#include <dlfcn.h>

#include <string>

namespace ze_cuda {

std::string CudaApi::describe(CUresult result) const {
    const char *text = nullptr;
    if (cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
        return "CUDA error " + std::to_string(result);
    return text;
}

namespace {

struct Loaded {
    CudaApi api;
    bool loaded = false;
    std::string failure;
};

Loaded load() {
    Loaded result;
    CudaApi &api = result.api;
    std::string &failure = result.failure;
    // Never closed: the driver's entry points stay in use until exit.
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        failure = std::string("libcuda.so.1 is not loadable (no NVIDIA driver): ") + dlerror();
        return result;
    }
    bool all = true;
    auto find = [&](auto &entry, const char *name) {
        entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(dlsym(library, name));
        if (!entry) {
            all = false;
            failure += std::string(failure.empty() ? "libcuda.so.1 lacks " : ", ") + name;
        }
    };
    find(api.cuInit, "cuInit");
    find(api.cuGetErrorString, "cuGetErrorString");
    find(api.cuDeviceGetCount, "cuDeviceGetCount");
    find(api.cuDeviceGet, "cuDeviceGet");
    find(api.cuDeviceGetName, "cuDeviceGetName");
    find(api.cuDeviceGetAttribute, "cuDeviceGetAttribute");
    find(api.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
    find(api.cuDeviceGetUuid, "cuDeviceGetUuid_v2");
    find(api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    find(api.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    find(api.cuCtxSetCurrent, "cuCtxSetCurrent");
    find(api.cuCtxGetCurrent, "cuCtxGetCurrent");
    find(api.cuCtxSynchronize, "cuCtxSynchronize");
    find(api.cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer");
    find(api.cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess");
    find(api.cuMemcpyPeerAsync, "cuMemcpyPeerAsync");
    find(api.cuModuleLoadDataEx, "cuModuleLoadDataEx");
    find(api.cuModuleGetFunction, "cuModuleGetFunction");
    find(api.cuModuleUnload, "cuModuleUnload");
    find(api.cuModuleGetGlobal, "cuModuleGetGlobal_v2");
    find(api.cuFuncGetAttribute, "cuFuncGetAttribute");
    find(api.cuFuncSetAttribute, "cuFuncSetAttribute");
    find(api.cuMemAlloc, "cuMemAlloc_v2");
    find(api.cuMemFree, "cuMemFree_v2");
    find(api.cuMemHostAlloc, "cuMemHostAlloc");
    find(api.cuMemFreeHost, "cuMemFreeHost");
    find(api.cuMemAllocManaged, "cuMemAllocManaged");
    find(api.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
    find(api.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
    find(api.cuLaunchKernel, "cuLaunchKernel");
    find(api.cuStreamCreate, "cuStreamCreate");
    find(api.cuStreamSynchronize, "cuStreamSynchronize");
    find(api.cuStreamDestroy, "cuStreamDestroy_v2");
    find(api.cuStreamQuery, "cuStreamQuery");
    find(api.cuStreamWriteValue32, "cuStreamWriteValue32_v2");
    find(api.cuStreamWaitValue32, "cuStreamWaitValue32_v2");
    find(api.cuStreamWaitEvent, "cuStreamWaitEvent");
    find(api.cuLaunchHostFunc, "cuLaunchHostFunc");
    find(api.cuMemcpyAsync, "cuMemcpyAsync");
    find(api.cuMemcpy3DAsync, "cuMemcpy3DAsync_v2");
    find(api.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
    find(api.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
    find(api.cuPointerGetAttribute, "cuPointerGetAttribute");
    find(api.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
    find(api.cuMemsetD8Async, "cuMemsetD8Async");
    find(api.cuMemsetD16Async, "cuMemsetD16Async");
    find(api.cuMemsetD32Async, "cuMemsetD32Async");
    find(api.cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
    find(api.cuMemHostRegister, "cuMemHostRegister_v2");
    find(api.cuMemHostUnregister, "cuMemHostUnregister");
    find(api.cuEventCreate, "cuEventCreate");
    find(api.cuEventRecord, "cuEventRecord");
    find(api.cuEventSynchronize, "cuEventSynchronize");
    find(api.cuEventElapsedTime, "cuEventElapsedTime");
    find(api.cuEventDestroy, "cuEventDestroy_v2");
    find(api.cuMemGetAllocationGranularity, "cuMemGetAllocationGranularity");
    find(api.cuMemCreate, "cuMemCreate");
    find(api.cuMemRelease, "cuMemRelease");
    find(api.cuMemAddressReserve, "cuMemAddressReserve");
    find(api.cuMemAddressFree, "cuMemAddressFree");
    find(api.cuMemMap, "cuMemMap");
    find(api.cuMemUnmap, "cuMemUnmap");
    find(api.cuMemSetAccess, "cuMemSetAccess");
    find(api.cuMemFreeAsync, "cuMemFreeAsync");
    find(api.cuIpcGetMemHandle, "cuIpcGetMemHandle");
    find(api.cuIpcOpenMemHandle, "cuIpcOpenMemHandle_v2");
    find(api.cuIpcCloseMemHandle, "cuIpcCloseMemHandle");
    result.loaded = all;
    return result;
}

} // namespace

// Every call into CUDA goes through here (backend_native.hpp's cuda()), so
// the loaded table is a function-local static: after the first call, one
// check of its guard. std::call_once would set thread-local state on each
// call, which cost more than some of the calls it guards.
const CudaApi *loadCudaApi(std::string *why) {
    static const Loaded loaded = load();
    if (!loaded.loaded && why)
        *why = loaded.failure;
    return loaded.loaded ? &loaded.api : nullptr;
}

} // namespace ze_cuda
