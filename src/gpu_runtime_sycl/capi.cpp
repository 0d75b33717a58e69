// The SYCL flavour's gpu* entry points (include/imex_gpu_sycl_runtime.h):
// validate the handles, call one SyclGpuStream method, report failures
// (SYCL's exceptions included) to the error handler.
#include "gpu_runtime/error_handler.hpp"
#include "gpu_runtime_sycl/sycl_gpu_stream.hpp"
#include "imex_gpu_sycl_runtime.h"

#include <cstdint>
#include <string>

using namespace imex_l0;

namespace {

SyclGpuStream *gpuStream(void *stream) {
    return validate<SyclGpuStream>(stream, "stream");
}

// Errors of work that failed after its submission returned (a kernel that
// faulted): SYCL hands them to the queue's handler at the next wait.
void reportAsync(sycl::exception_list errors) {
    for (const std::exception_ptr &error : errors) {
        try {
            std::rethrow_exception(error);
        } catch (const std::exception &e) {
            reportGpuError("gpuWait", e.what());
        }
    }
}

sycl::property_list inOrder() {
    return {sycl::property::queue::in_order{}};
}

} // namespace

extern "C" {

void *gpuCreateStream(void *device, void *context) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&]() -> void * {
        if (!device && !context)
            return new SyclGpuStream(sycl::queue(sycl::gpu_selector_v, reportAsync, inOrder()));
        if (!device || !context)
            failInvalid("give both a device (sycl::device *) and a context (sycl::context *), "
                        "or neither");
        return new SyclGpuStream(sycl::queue(*static_cast<sycl::context *>(context),
                                             *static_cast<sycl::device *>(device), reportAsync,
                                             inOrder()));
    });
}

void *gpuCreateStreamFromSyclQueue(void *queue) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&]() -> void * {
        if (!queue)
            failInvalid("queue is NULL");
        return new SyclGpuStream(*static_cast<sycl::queue *>(queue));
    });
}

void gpuStreamDestroy(void *stream) {
    gpuGuard(__func__, 0, [&] {
        delete gpuStream(stream);
        return 0;
    });
}

void gpuDestroyStream(void *stream) {
    gpuStreamDestroy(stream);
}

void *gpuCreateDevice(size_t index) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&]() -> void * {
        std::vector<sycl::device> gpus = sycl::device::get_devices(sycl::info::device_type::gpu);
        if (index >= gpus.size())
            failInvalid("device index " + std::to_string(index) + " is out of range: SYCL lists " +
                        std::to_string(gpus.size()) + " GPUs");
        return new sycl::device(gpus[index]);
    });
}

void gpuDestroyDevice(void *device) {
    delete static_cast<sycl::device *>(device);
}

void *gpuCreateContext(void *device) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&]() -> void * {
        if (!device)
            failInvalid("device is NULL");
        return new sycl::context(*static_cast<sycl::device *>(device));
    });
}

void gpuDestroyContext(void *context) {
    delete static_cast<sycl::context *>(context);
}

void *gpuMemAlloc(void *stream, size_t size, size_t alignment, bool isShared) {
    return gpuGuard(__func__, static_cast<void *>(nullptr),
                    [&] { return gpuStream(stream)->allocate(size, alignment, isShared); });
}

void gpuMemFree(void *stream, void *ptr) {
    gpuGuard(__func__, 0, [&] {
        gpuStream(stream)->free(ptr);
        return 0;
    });
}

void gpuMemCopy(void *stream, void *dst, void *src, size_t size) {
    gpuGuard(__func__, 0, [&] {
        gpuStream(stream)->copy(dst, src, size);
        return 0;
    });
}

void gpuMemFill(void *stream, void *dst, const void *pattern, size_t patternSize, size_t size) {
    gpuGuard(__func__, 0, [&] {
        if (!pattern)
            failInvalid("pattern is NULL");
        gpuStream(stream)->fill(dst, pattern, patternSize, size);
        return 0;
    });
}

void *gpuModuleLoad(void *stream, const void *spirv, size_t size) {
    return gpuGuard(__func__, static_cast<void *>(nullptr),
                    [&]() -> void * { return gpuStream(stream)->loadModule(spirv, size); });
}

void gpuModuleUnload(void *module) {
    gpuGuard(__func__, 0, [&] {
        validate<SyclModule>(module, "module");
        return 0;
    });
}

void *gpuKernelGet(void *stream, void *module, const char *name) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&]() -> void * {
        return gpuStream(stream)->kernel(validate<SyclModule>(module, "module"), name);
    });
}

void *gpuLaunchKernel(void *stream, void *kernel, size_t gridX, size_t gridY, size_t gridZ,
                      size_t blockX, size_t blockY, size_t blockZ, size_t sharedMemBytes,
                      void *params, void *depEvents) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&]() -> void * {
        const size_t grid[3] = {gridX, gridY, gridZ}, block[3] = {blockX, blockY, blockZ};
        // The low 32 bits: IMEX's lowering passes a 32-bit value (see the
        // Level Zero flavour's header).
        return gpuStream(stream)->launch(validate<SyclKernel>(kernel, "kernel"), grid, block,
                                         uint32_t(sharedMemBytes), params, depEvents);
    });
}

void *gpuRecordEvent(void *stream) {
    return gpuGuard(__func__, static_cast<void *>(nullptr),
                    [&]() -> void * { return gpuStream(stream)->record(); });
}

void gpuWaitEvents(void *stream, void *depEvents) {
    gpuGuard(__func__, 0, [&] {
        gpuStream(stream)->waitEvents(depEvents);
        return 0;
    });
}

void gpuWait(void *stream) {
    gpuGuard(__func__, 0, [&] {
        gpuStream(stream)->wait();
        return 0;
    });
}

void gpuSetErrorHandler(imex_gpu_error_handler_t handler, void *user_data) {
    setGpuErrorHandler(handler, user_data);
}

} // extern "C"
