// The gpu* entry points: validate the stream, call one GpuStream method,
// report failures to the error handler.
#include "gpu_runtime/error_handler.hpp"
#include "gpu_runtime/gpu_stream.hpp"
#include "gpu_runtime/stream_target.hpp"

#include <cstdint>
#include <string>

using namespace imex_l0;

namespace {

GpuStream *gpuStream(void *stream) { return validate<GpuStream>(stream, "stream"); }

void *publish(std::unique_ptr<GpuStream> stream) { return stream.release(); }

} // namespace

extern "C" {

void *gpuCreateStream(void *device, void *context) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&] {
        StreamTarget target = resolveStreamTarget(device, context);
        if (!target.device)
            return publish(GpuStream::temporary());
        return publish(GpuStream::onContext(target.device, target.context));
    });
}

void *gpuCreateStreamFromUser(const imex_gpu_l0_stream_t *user) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&] {
        if (!user)
            failInvalid("user is NULL");
        return publish(GpuStream::fromUser(*user));
    });
}

void *gpuCreateStreamFromInterop(imex_l0_stream_t stream) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&] {
        return publish(GpuStream::fromInterop(validate<Stream>(stream, "stream")));
    });
}

void *gpuCreateDevice(size_t index) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&] {
        if (index > UINT32_MAX)
            failInvalid("device index " + std::to_string(index) + " is out of range");
        return static_cast<void *>(Engine::firstDriverDevice(uint32_t(index), nullptr));
    });
}

void gpuDestroyDevice(void *device) {
    gpuGuard(__func__, 0, [&] {
        Engine::driverOf(static_cast<ze_device_handle_t>(device)); // refuses a non-device
        return 0;
    });
}

void *gpuCreateContext(void *device) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&] {
        ze_driver_handle_t driver = Engine::driverOf(static_cast<ze_device_handle_t>(device));
        ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
        ze_context_handle_t context = nullptr;
        IMEX_L0_ZE(zeContextCreate(driver, &desc, &context));
        return static_cast<void *>(context);
    });
}

void gpuDestroyContext(void *context) {
    gpuGuard(__func__, 0, [&] {
        if (!context)
            failInvalid("context is NULL");
        ze_result_t r = zeContextDestroy(static_cast<ze_context_handle_t>(context));
        if (r == ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
            failInvalid("the context is still in use: destroy its streams (and free its memory) "
                        "first");
        checkZe(r, "zeContextDestroy");
        return 0;
    });
}

void gpuStreamDestroy(void *stream) {
    gpuGuard(__func__, 0, [&] {
        std::unique_ptr<GpuStream> destroyed(gpuStream(stream)); // deleted even if close fails
        destroyed->close();
        return 0;
    });
}

void gpuDestroyStream(void *stream) { gpuStreamDestroy(stream); }

void *gpuMemAlloc(void *stream, size_t size, size_t alignment, bool isShared) {
    return gpuGuard(__func__, static_cast<void *>(nullptr),
                    [&] { return gpuStream(stream)->alloc(size, alignment, isShared); });
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
        gpuStream(stream)->fill(dst, pattern, patternSize, size);
        return 0;
    });
}

void *gpuModuleLoad(void *stream, const void *spirv, size_t size) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&] {
        return static_cast<void *>(&gpuStream(stream)->load(spirv, size));
    });
}

void gpuModuleUnload(void *module) {
    gpuGuard(__func__, 0, [&] {
        validate<KernelCache::Module>(module, "module");
        return 0;
    });
}

void *gpuKernelGet(void *stream, void *module, const char *name) {
    return gpuGuard(__func__, static_cast<void *>(nullptr), [&] {
        return static_cast<void *>(&gpuStream(stream)->kernel(module, name));
    });
}

ze_event_handle_t gpuLaunchKernel(void *stream, void *kernel, size_t gridX, size_t gridY,
                                  size_t gridZ, size_t blockX, size_t blockY, size_t blockZ,
                                  size_t sharedMemBytes, void *params, void *depEvents) {
    return gpuGuard(__func__, static_cast<ze_event_handle_t>(nullptr), [&] {
        const size_t grid[3] = {gridX, gridY, gridZ};
        const size_t block[3] = {blockX, blockY, blockZ};
        // The low 32 bits only: see the header on sharedMemBytes.
        return gpuStream(stream)->launch(kernel, grid, block, uint32_t(sharedMemBytes),
                                         static_cast<const ParamDesc *>(params),
                                         static_cast<const EventDesc *>(depEvents));
    });
}

ze_event_handle_t gpuRecordEvent(void *stream) {
    return gpuGuard(__func__, static_cast<ze_event_handle_t>(nullptr),
                    [&] { return gpuStream(stream)->recordEvent(); });
}

void gpuWaitEvents(void *stream, void *depEvents) {
    gpuGuard(__func__, 0, [&] {
        gpuStream(stream)->waitEvents(static_cast<const EventDesc *>(depEvents));
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
