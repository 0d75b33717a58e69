// The mgpu* entry points (upstream MLIR's GPU runtime ABI) on gpu streams,
// reached from libimex_l0_mlir_runtime.so through imex_l0_mgpu_table (see
// mgpu_table.h). Failures go to the gpu* error handler under the mgpu name.
#include "mlir_runtime/mgpu_table.h"

#include "common/small_buffer.hpp"
#include "engine/event_pool.hpp"
#include "gpu_runtime/error_handler.hpp"
#include "gpu_runtime/gpu_stream.hpp"
#include "mlir_runtime/binding.hpp"
#include "mlir_runtime/host_register.hpp"
#include "mlir_runtime/mgpu_module.hpp"

#include <cstdint>
#include <string>

using namespace imex_l0;

namespace {

GpuStream *streamOf(void *stream) { return validate<GpuStream>(stream, "stream"); }

// count elements of `width` bytes, as the fill's byte size.
size_t fillBytes(size_t count, size_t width) {
    if (count > SIZE_MAX / width)
        failInvalid("count " + std::to_string(count) + " overflows the size of the fill");
    return count * width;
}

imex_l0_status_t bind(imex_l0_engine_t engine) {
    return guard("imex_l0_mlir_runtime_bind", [&] {
        mgpu::bindEngine(engine ? validate<Engine>(engine, "engine") : nullptr);
        return imex_l0_success;
    });
}

imex_l0_status_t bindStream(imex_l0_stream_t stream) {
    return guard("imex_l0_mlir_runtime_bind_stream", [&] {
        mgpu::bindStream(validate<Stream>(stream, "stream"));
        return imex_l0_success;
    });
}

imex_l0_status_t unbind() {
    mgpu::bindEngine(nullptr);
    return imex_l0_success;
}

void *streamCreate() {
    return gpuGuard("mgpuStreamCreate", static_cast<void *>(nullptr), [] {
        std::unique_ptr<GpuStream> s = mgpu::boundStream()
                                           ? GpuStream::fromInterop(mgpu::boundStream())
                                           : GpuStream::onEngine(&mgpu::currentEngine());
        return static_cast<void *>(s.release());
    });
}

void streamSynchronize(void *stream) {
    gpuGuard("mgpuStreamSynchronize", 0, [&] {
        streamOf(stream)->wait();
        return 0;
    });
}

void streamDestroy(void *stream) {
    gpuGuard("mgpuStreamDestroy", 0, [&] {
        delete streamOf(stream);
        return 0;
    });
}

void streamWaitEvent(void *stream, void *event) {
    gpuGuard("mgpuStreamWaitEvent", 0, [&] {
        streamOf(stream)->waitFor(static_cast<ze_event_handle_t>(event));
        return 0;
    });
}

void *eventCreate() {
    return gpuGuard("mgpuEventCreate", static_cast<void *>(nullptr), [] {
        return static_cast<void *>(mgpu::currentEngine().events().acquire());
    });
}

EventPool &poolOf(void *event) {
    if (!event)
        failInvalid("event is NULL");
    EventPool *pool = EventPool::poolOf(static_cast<ze_event_handle_t>(event));
    if (!pool)
        failInvalid("event was not made by mgpuEventCreate");
    return *pool;
}

void eventDestroy(void *event) {
    gpuGuard("mgpuEventDestroy", 0, [&] {
        poolOf(event).release(static_cast<ze_event_handle_t>(event));
        return 0;
    });
}

void eventSynchronize(void *event) {
    gpuGuard("mgpuEventSynchronize", 0, [&] {
        poolOf(event);
        IMEX_L0_ZE(zeEventHostSynchronize(static_cast<ze_event_handle_t>(event), UINT64_MAX));
        return 0;
    });
}

void eventRecord(void *event, void *stream) {
    gpuGuard("mgpuEventRecord", 0, [&] {
        streamOf(stream)->record(static_cast<ze_event_handle_t>(event));
        return 0;
    });
}

void *memAlloc(uint64_t size, void *stream, bool isHostShared) {
    return gpuGuard("mgpuMemAlloc", static_cast<void *>(nullptr), [&] {
        if (size > SIZE_MAX)
            failInvalid("size " + std::to_string(size) + " does not fit the address space");
        return stream ? streamOf(stream)->alloc(size_t(size), 0, isHostShared)
                      : GpuStream::allocOn(mgpu::currentEngine(), size_t(size), 0, isHostShared);
    });
}

void memFree(void *ptr, void *stream) {
    gpuGuard("mgpuMemFree", 0, [&] {
        if (stream)
            streamOf(stream)->free(ptr);
        else
            GpuStream::freeOn(mgpu::currentEngine(), ptr);
        return 0;
    });
}

void memCopy(void *dst, void *src, size_t size, void *stream) {
    gpuGuard("mgpuMemcpy", 0, [&] {
        streamOf(stream)->copy(dst, src, size);
        return 0;
    });
}

void memset32(void *dst, uint32_t value, size_t count, void *stream) {
    gpuGuard("mgpuMemset32", 0, [&] {
        streamOf(stream)->fill(dst, &value, sizeof value, fillBytes(count, sizeof value));
        return 0;
    });
}

void memset16(void *dst, uint16_t value, size_t count, void *stream) {
    gpuGuard("mgpuMemset16", 0, [&] {
        streamOf(stream)->fill(dst, &value, sizeof value, fillBytes(count, sizeof value));
        return 0;
    });
}

void *moduleLoad(const void *data, size_t size) {
    return gpuGuard("mgpuModuleLoad", static_cast<void *>(nullptr),
                    [&] { return static_cast<void *>(mgpu::Module::load(data, size)); });
}

void moduleUnload(void *module) {
    gpuGuard("mgpuModuleUnload", 0, [&] {
        mgpu::Module::unload(validate<mgpu::Module>(module, "module"));
        return 0;
    });
}

void *moduleGetFunction(void *module, const char *name) {
    return gpuGuard("mgpuModuleGetFunction", static_cast<void *>(nullptr), [&] {
        return static_cast<void *>(&validate<mgpu::Module>(module, "module")->function(name));
    });
}

void launchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                  intptr_t blockY, intptr_t blockZ, int32_t sharedMemBytes, void *stream,
                  void **params, void ** /*extra: unused by SPIR-V targets*/,
                  size_t paramsCount) {
    gpuGuard("mgpuLaunchKernel", 0, [&] {
        GpuStream *s = streamOf(stream);
        KernelEntry &k = validate<mgpu::Function>(function, "function")->on(*s->engine());
        if (sharedMemBytes < 0)
            failInvalid("dynamicSharedMemBytes is negative (" + std::to_string(sharedMemBytes) +
                        ")");
        // With dynamic shared memory the last parameter stands for the
        // kernel's local-memory argument.
        if (paramsCount != k.args.size())
            failInvalid("kernel '" + k.name + "' takes " + std::to_string(k.args.size()) +
                        " argument(s) but paramsCount is " + std::to_string(paramsCount) +
                        (sharedMemBytes ? " (including the shared-memory slot)" : ""));
        if (paramsCount && !params)
            failInvalid("params is NULL but paramsCount is " + std::to_string(paramsCount));
        // MLIR passes no sizes: each comes from the kernel's SPIR-V signature.
        SmallBuffer<ArgValue> values(paramsCount);
        for (size_t i = 0; i < paramsCount; ++i) {
            if (sharedMemBytes > 0 && i + 1 == paramsCount) {
                values[i] = {size_t(sharedMemBytes), nullptr}; // the local-memory argument
                continue;
            }
            if (!params[i])
                failInvalid("params[" + std::to_string(i) + "] is NULL");
            values[i] = {k.args[i].size, params[i]};
        }
        const intptr_t g[3] = {gridX, gridY, gridZ}, b[3] = {blockX, blockY, blockZ};
        size_t grid[3], block[3];
        for (int d = 0; d < 3; ++d) {
            if (g[d] <= 0 || b[d] <= 0)
                failInvalid("grid and block sizes must be positive (dimension " +
                            std::to_string(d) + ": grid " + std::to_string(g[d]) + ", block " +
                            std::to_string(b[d]) + ")");
            grid[d] = size_t(g[d]);
            block[d] = size_t(b[d]);
        }
        s->launchValues(k, grid, block, values.data(), paramsCount);
        return 0;
    });
}

void setDefaultDevice(int32_t device) {
    gpuGuard("mgpuSetDefaultDevice", 0, [&] {
        if (device < 0)
            failInvalid("device index " + std::to_string(device) + " is negative");
        mgpu::setDefaultDevice(uint32_t(device));
        return 0;
    });
}

// The elements of a ranked memref (MLIR's descriptor: allocated, aligned,
// offset, sizes[rank], strides[rank]) as a byte range from its first element
// to one past its last.
struct ByteRange {
    char *start;
    size_t bytes;
};
ByteRange memrefRange(int64_t rank, void *descriptor, int64_t elementSize) {
    if (!descriptor)
        failInvalid("descriptor is NULL");
    if (rank < 0 || elementSize <= 0)
        failInvalid("rank " + std::to_string(rank) + " or element size " +
                    std::to_string(elementSize) + " is invalid");
    auto *words = static_cast<int64_t *>(descriptor);
    char *aligned = reinterpret_cast<char *>(words[1]);
    const int64_t offset = words[2], *sizes = words + 3, *strides = words + 3 + rank;
    int64_t last = 0; // the index of the last element
    for (int64_t d = 0; d < rank; ++d) {
        if (sizes[d] == 0)
            return {aligned, 0};
        last += (sizes[d] - 1) * strides[d];
    }
    return {aligned + offset * elementSize, size_t(last + 1) * size_t(elementSize)};
}

void memHostRegisterMemRef(int64_t rank, void *descriptor, int64_t elementSize) {
    gpuGuard("mgpuMemHostRegisterMemRef", 0, [&] {
        ByteRange r = memrefRange(rank, descriptor, elementSize);
        mgpu::registerHostMemory(mgpu::currentEngine(), r.start, r.bytes);
        return 0;
    });
}

void memHostUnregisterMemRef(int64_t rank, void *descriptor, int64_t elementSize) {
    gpuGuard("mgpuMemHostUnregisterMemRef", 0, [&] {
        mgpu::unregisterHostMemory(mgpu::currentEngine(),
                                   memrefRange(rank, descriptor, elementSize).start);
        return 0;
    });
}

const imex_l0_mgpu_table_t table = {
    sizeof(imex_l0_mgpu_table_t),
    bind,
    bindStream,
    unbind,
    streamCreate,
    streamSynchronize,
    streamDestroy,
    streamWaitEvent,
    eventCreate,
    eventDestroy,
    eventSynchronize,
    eventRecord,
    memAlloc,
    memFree,
    memCopy,
    memset32,
    memset16,
    moduleLoad,
    moduleUnload,
    moduleGetFunction,
    launchKernel,
    setDefaultDevice,
    memHostRegisterMemRef,
    memHostUnregisterMemRef,
};

} // namespace

extern "C" const imex_l0_mgpu_table_t *imex_l0_mgpu_table(void) { return &table; }
