// The CUDA backend's state in the core's objects (../core/backend.hpp): one
// driver over the machine's CUDA devices, a device a CUDA device whose
// primary context every context of the driver uses.
#pragma once

#include "cuda_api.hpp"
#include "event_clock.hpp"
#include "object.hpp"
#include "staging.hpp"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace ze_driver {

class Device;

struct DriverNative {
    std::once_flag peersEnabled; // backend::initContext, at the first context
    std::once_flag pageFound;
    size_t virtualPage = 0; // backend::virtualPageSize, found once
};

struct DeviceNative {
    ze_cuda::CUdevice device = 0;
    uint32_t grid[3] = {0, 0, 0}; // the most blocks of a CUDA grid in each dimension
    std::once_flag retained;
    // Once retained (primaryContext): kept until the process ends.
    std::atomic<ze_cuda::CUcontext> primary{nullptr};
    StagingPool staging;                  // for copies with pageable host memory (staging.hpp)
    EventClock clock;                     // for kernel timestamps (event_clock.hpp)
    // A kernel fault lost the device (backend::deviceLost): set once seen,
    // never cleared. When the context was last asked (lost() asks at most
    // once a millisecond), in steady-clock nanoseconds.
    std::atomic<bool> lost{false};
    std::atomic<int64_t> lastProbe{0};
    std::once_flag probeMade;
    ze_cuda::CUstream probe = nullptr; // an idle stream lost() queries (device_loss.cpp)
    std::once_flag releasesMade;
    ze_cuda::CUstream releases = nullptr; // where device memory is freed (memory_release.hpp)
};

// Level Zero contexts share the devices' primary contexts (as the CUDA
// runtime's do), so memory of one context is usable in any other.
struct ContextNative {
    // This process's own memory opened through its IPC handle (CUDA opens
    // another process's only): the pointers given out, with their opens.
    std::mutex ownOpensMutex;
    std::map<const void *, int> ownOpens;
};

// A module is a CUDA module of the device's primary context, loaded from the
// PTX that ptx_translator.cpp makes of the SPIR-V.
struct ModuleNative {
    ze_cuda::CUmodule module = nullptr;
    ze_cuda::CUcontext context = nullptr; // where it is loaded
    std::string ptx;                      // for zeModuleGetNativeBinary
    bool prints = false;                  // calls vprintf (Queue: printf's output)
    ModuleNative() = default;
    ModuleNative(const ModuleNative &) = delete;
    ModuleNative &operator=(const ModuleNative &) = delete;
    ~ModuleNative();
};

// A kernel is a function of its module; a launch passes its arguments as
// cuLaunchKernel's parameter array.
struct KernelNative {
    ze_cuda::CUfunction function = nullptr;
    uint32_t staticShared = 0; // bytes of __local variables the kernel declares itself
    // Bytes of its __local variables the translation placed at the start of
    // the dynamic shared memory, before the __local arguments
    // (shared_variables.hpp).
    uint32_t sharedVariables = 0;
    // The dynamic shared memory (the placed variables and the __local
    // arguments) a launch may have now: what every launch gets, raised when
    // a launch needs more (queue.cpp).
    std::atomic<uint32_t> dynamicShared{0};
    bool prints = false;       // its module calls vprintf
};

// An image is device memory holding its pixels and a descriptor of them
// that kernels read (image.cpp); a sampler is only its bits.
struct ImageNative {
    void *pixels = nullptr;     // rows of rowPitch bytes, slices of slicePitch
    size_t rowPitch = 0, slicePitch = 0;
    void *descriptor = nullptr; // an ImageDescriptor (image_descriptor.hpp)
};
struct SamplerNative {};

// Physical memory is one CUDA allocation (cuMemCreate) per page of
// backend::virtualPageSize: cuMemMap maps an allocation from its start only,
// and Level Zero maps physical memory from any page (virtual_memory.cpp).
struct PhysicalMemoryNative {
    Device *device = nullptr;
    std::vector<ze_cuda::CUmemGenericAllocationHandle> pages;
    PhysicalMemoryNative() = default;
    ~PhysicalMemoryNative(); // a page stays while a mapping of it does
    PhysicalMemoryNative(const PhysicalMemoryNative &) = delete;
    PhysicalMemoryNative &operator=(const PhysicalMemoryNative &) = delete;
};

struct AllocationNative {
    // What the CUDA allocator returned (base, or below it when padded for
    // alignment), and which allocator.
    void *raw = nullptr;
    bool host =
        false; // pinned host memory (memory_release.hpp), else cuMemAlloc or cuMemAllocManaged
    size_t rawBytes = 0; // host: the pinned block's size
    // Device memory shared with other processes (ipc.cpp): the memory file
    // that carries its CUDA IPC handle, made at the first export (-1 before).
    int ipcFile = -1;
    // Another process's memory opened here (Allocation::imported): how many
    // opens it has (CUDA gives every open of one handle the same address).
    int opens = 0;
};

// The CUDA driver's entry points (loaded at discovery, which found devices).
const ze_cuda::CudaApi &cuda();

// `device`'s primary context, retained the first time.
ze_cuda::CUcontext primaryContext(Device *device);
// Makes `device`'s primary context current on the calling thread (retaining
// it the first time): CUDA calls act on the thread's current context.
void makeCurrent(Device *device);

// A CUDA failure seen by the driver: out of memory keeps its meaning, a
// fault that poisoned the context is a lost device, anything else is a
// device-side problem the application cannot fix.
inline void checkCuda(ze_cuda::CUresult result) {
    if (result == ze_cuda::CUDA_SUCCESS)
        return;
    if (result == ze_cuda::CUDA_ERROR_OUT_OF_MEMORY)
        fail(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    fail(ze_cuda::isStickyError(result) ? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_ERROR_UNKNOWN);
}

// Whether a kernel fault lost `device` (backend::deviceLost, device_loss.cpp),
// asking its context at most once a millisecond: cheap enough for every poll
// of a wait.
bool lost(Device *device);

} // namespace ze_driver
