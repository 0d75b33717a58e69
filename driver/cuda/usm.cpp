// The CUDA backend's contexts and USM (../core/backend.hpp): device memory
// is cuMemAlloc memory (the host cannot touch it), host memory is pinned and
// mapped for the devices (cuMemHostAlloc), shared memory is managed
// (cuMemAllocManaged), all in the devices' primary contexts, so one
// Level Zero context's memory is any other's too.
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "memory_release.hpp"

#include <level_zero/ze_ddi.h>

#include <unistd.h>

namespace ze_driver {

const ze_cuda::CudaApi &cuda() {
    // Discovery loaded it, or there would be no device to get here with.
    return *ze_cuda::loadCudaApi(nullptr);
}

// Every append asks for it: after the first call, an atomic load (without
// std::call_once's thread-local bookkeeping).
ze_cuda::CUcontext primaryContext(Device *device) {
    DeviceNative &native = device->native();
    if (ze_cuda::CUcontext context = native.primary.load(std::memory_order_acquire))
        return context;
    std::call_once(native.retained, [&] {
        ze_cuda::CUcontext context = nullptr;
        checkCuda(cuda().cuDevicePrimaryCtxRetain(&context, native.device));
        native.primary.store(context, std::memory_order_release);
    });
    return native.primary.load(std::memory_order_acquire);
}

// Setting the current context costs several times more than reading it, and
// a thread that appends keeps the same context current, so it is set only
// where it differs. (Read each time, not remembered: the application may make
// another context current between two calls into the driver.)
void makeCurrent(Device *device) {
    ze_cuda::CUcontext wanted = primaryContext(device);
    ze_cuda::CUcontext current = nullptr;
    if (cuda().cuCtxGetCurrent(&current) == ze_cuda::CUDA_SUCCESS && current == wanted)
        return;
    checkCuda(cuda().cuCtxSetCurrent(wanted));
}

// Whether CUDA lets `device` reach `peer`'s memory (NVLink or PCIe peer to
// peer); the driver enables it wherever it can (initContext).
bool backend::peerAccess(Device &device, Device &peer) {
    if (&device == &peer)
        return true;
    int can = 0;
    return cuda().cuDeviceCanAccessPeer(&can, device.native().device, peer.native().device) ==
               ze_cuda::CUDA_SUCCESS &&
           can != 0;
}

void backend::initContext(Context &context) {
    // The primary contexts are made now, not at the first allocation, so
    // that a context that cannot be used fails at its creation.
    const auto &devices = context.driver()->devices();
    for (const auto &device : devices)
        makeCurrent(device.get());
    // Peer access, once for the process, between every two devices that
    // have it: kernels of one device may then use memory of the other (as
    // zeDeviceCanAccessPeer says they can), and copies between them go over
    // the link instead of through host memory.
    std::call_once(context.driver()->native().peersEnabled, [&] {
        for (const auto &device : devices)
            for (const auto &peer : devices) {
                if (device == peer || !peerAccess(*device, *peer))
                    continue;
                makeCurrent(device.get());
                ze_cuda::CUresult r =
                    cuda().cuCtxEnablePeerAccess(primaryContext(peer.get()), 0);
                if (r != ze_cuda::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
                    checkCuda(r);
            }
    });
}

void backend::finishContext(Context &) {}

Allocation backend::allocate(Context &, size_t size, size_t alignment, ze_memory_type_t type,
                             Device *limits) {
    // cuMemAlloc and cuMemAllocManaged align to 256 bytes, cuMemHostAlloc to
    // a page; larger alignments are met by over-allocating.
    constexpr size_t kNativeAlignment = 256;
    size_t padding = alignment > kNativeAlignment ? alignment - kNativeAlignment : 0;
    makeCurrent(limits);
    Allocation a;
    if (type == ZE_MEMORY_TYPE_HOST) {
        a.native.host = true;
        a.native.raw = takeHostMemory(size + padding, &a.native.rawBytes);
    } else {
        ze_cuda::CUdeviceptr pointer = 0;
        checkCuda(
            type == ZE_MEMORY_TYPE_SHARED
                ? cuda().cuMemAllocManaged(&pointer, size + padding, ze_cuda::CU_MEM_ATTACH_GLOBAL)
                : allocateDeviceMemory(limits, &pointer, size + padding));
        a.native.raw = reinterpret_cast<void *>(pointer);
    }
    uintptr_t address = reinterpret_cast<uintptr_t>(a.native.raw);
    if (alignment > kNativeAlignment)
        address = (address + alignment - 1) & ~(uintptr_t(alignment) - 1);
    a.base = reinterpret_cast<void *>(address);
    return a;
}

void backend::release(Context &context, const Allocation &a) noexcept {
    // Freeing takes any current context of the driver: the memory is
    // unified-addressed. Called from destructors too: nothing may throw.
    Device *device = context.driver()->devices().front().get();
    if (cuda().cuCtxSetCurrent(device->native().primary.load()) != ze_cuda::CUDA_SUCCESS)
        return;
    if (a.native.ipcFile >= 0)
        close(a.native.ipcFile);
    if (a.imported)
        cuda().cuIpcCloseMemHandle(reinterpret_cast<ze_cuda::CUdeviceptr>(a.native.raw));
    else if (a.native.host)
        giveHostMemory(a.native.raw, a.native.rawBytes);
    else if (a.type == ZE_MEMORY_TYPE_DEVICE)
        releaseDeviceMemory(a.device, a.native.raw);
    else
        cuda().cuMemFree(reinterpret_cast<ze_cuda::CUdeviceptr>(a.native.raw));
}

// Event pools shared between processes keep their states in a memory file,
// whose words signals register with CUDA (signal.hpp).
bool backend::eventPoolIpcSupported() {
    return true;
}

} // namespace ze_driver
