// The OpenCL backend's state in the core's objects (../core/backend.hpp): a
// driver is an OpenCL platform, a device an OpenCL device with SVM.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include "kernel_launch.hpp"
#include "object.hpp"

#include <CL/cl.h>

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace ze_driver {

class Driver;

struct DriverNative {
    cl_platform_id platform = nullptr;
    std::mutex contextMutex;      // guards context
    cl_context context = nullptr; // see retainClContext
};

struct DeviceNative {
    cl_device_id id = nullptr;
    // Flags for clSVMAlloc: fine-grain buffer SVM when the device has it, so
    // the host may touch USM without map/unmap.
    cl_svm_mem_flags svmFlags = CL_MEM_READ_WRITE;
    // The largest alignment clSVMAlloc accepts (CL_DEVICE_MEM_BASE_ADDR_ALIGN).
    size_t maxSvmAlignment = 128;
};

struct ContextNative {
    cl_context cl = nullptr; // the driver's one OpenCL context (retainClContext)
};

// Physical memory is a memory file (memfd): reservations are inaccessible
// host pages, and mapping is an mmap of the file over them (virtual_memory.cpp),
// so kernels, copies and fills take mapped ranges like any host memory.
struct PhysicalMemoryNative {
    int fd = -1;
    explicit PhysicalMemoryNative(size_t size);
    ~PhysicalMemoryNative(); // its pages stay while a mapping of them does
    PhysicalMemoryNative(const PhysicalMemoryNative &) = delete;
    PhysicalMemoryNative &operator=(const PhysicalMemoryNative &) = delete;
};

// USM is clSVMAlloc memory, or, on a device that reaches host memory, host
// pages of the driver's own (host_pages.hpp), which IPC can share.
struct AllocationNative {
    void *svm = nullptr; // what clSVMAlloc returned: base, or below it when padded for alignment
    size_t pages = 0;    // host pages: their length from base (0: SVM)
    int fd = -1;         // host pages: the memory file once exported (-1 before)
};

// A module is an OpenCL program built for its device.
struct ModuleNative {
    cl_program program = nullptr;
    ModuleNative() = default;
    ModuleNative(const ModuleNative &) = delete;
    ModuleNative &operator=(const ModuleNative &) = delete;
    ~ModuleNative();
};

// A kernel is a cl_kernel, whose argument state is shared by every launch:
// launches set their values on it and enqueue it under `mutex`.
struct KernelNative {
    cl_kernel cl = nullptr;
    std::mutex mutex;
    // The values last set on the cl_kernel: setting an argument costs about
    // as much as the launch on PoCL, so unchanged ones are not set again.
    std::vector<ArgValue> applied;
    KernelNative() = default;
    KernelNative(const KernelNative &) = delete;
    KernelNative &operator=(const KernelNative &) = delete;
    ~KernelNative();
};

// An image is an OpenCL image, a sampler an OpenCL sampler (image.cpp).
struct ImageNative {
    cl_mem cl = nullptr;
};
struct SamplerNative {
    cl_sampler cl = nullptr;
};

// The one OpenCL context over every device of the driver, shared by all its
// L0 contexts (see the README, "Contexts"). Made on first use; the caller
// gets a reference of its own.
cl_context retainClContext(Driver *driver);

// An OpenCL failure seen by the driver. Allocation failures keep their
// meaning; everything else is a device-side problem the application cannot fix.
inline void checkCl(cl_int err) {
    if (err == CL_SUCCESS)
        return;
    if (err == CL_OUT_OF_HOST_MEMORY)
        fail(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    if (err == CL_OUT_OF_RESOURCES || err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
        fail(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    fail(ZE_RESULT_ERROR_UNKNOWN);
}
} // namespace ze_driver
