// libimex_l0_mlir_runtime.so: the mgpu* names and the binding calls, each
// forwarded to the implementation in libimex_l0_interop.so (mgpu_table.h).
#include "mlir_runtime/mgpu_table.h"

namespace {

const imex_l0_mgpu_table_t &impl() {
    static const imex_l0_mgpu_table_t *t = imex_l0_mgpu_table();
    return *t;
}

} // namespace

extern "C" {

imex_l0_status_t imex_l0_mlir_runtime_bind(imex_l0_engine_t engine) { return impl().bind(engine); }
imex_l0_status_t imex_l0_mlir_runtime_bind_stream(imex_l0_stream_t stream) {
    return impl().bindStream(stream);
}
imex_l0_status_t imex_l0_mlir_runtime_unbind(void) { return impl().unbind(); }

void *mgpuStreamCreate(void) { return impl().streamCreate(); }
void mgpuStreamSynchronize(void *stream) { impl().streamSynchronize(stream); }
void mgpuStreamDestroy(void *stream) { impl().streamDestroy(stream); }
void mgpuStreamWaitEvent(void *stream, void *event) { impl().streamWaitEvent(stream, event); }
void *mgpuEventCreate(void) { return impl().eventCreate(); }
void mgpuEventDestroy(void *event) { impl().eventDestroy(event); }
void mgpuEventSynchronize(void *event) { impl().eventSynchronize(event); }
void mgpuEventRecord(void *event, void *stream) { impl().eventRecord(event, stream); }
void *mgpuMemAlloc(uint64_t size, void *stream, bool isHostShared) {
    return impl().memAlloc(size, stream, isHostShared);
}
void mgpuMemFree(void *ptr, void *stream) { impl().memFree(ptr, stream); }
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
    impl().memcpy(dst, src, sizeBytes, stream);
}
void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
    impl().memset32(dst, value, count, stream);
}
void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream) {
    impl().memset16(dst, value, count, stream);
}
void *mgpuModuleLoad(const void *data, size_t size) { return impl().moduleLoad(data, size); }
void mgpuModuleUnload(void *module) { impl().moduleUnload(module); }
void *mgpuModuleGetFunction(void *module, const char *name) {
    return impl().moduleGetFunction(module, name);
}
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                      intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                      int32_t dynamicSharedMemBytes, void *stream, void **params, void **extra,
                      size_t paramsCount) {
    impl().launchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                        dynamicSharedMemBytes, stream, params, extra, paramsCount);
}
void mgpuSetDefaultDevice(int32_t device) { impl().setDefaultDevice(device); }
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor, int64_t elementSizeBytes) {
    impl().memHostRegisterMemRef(rank, descriptor, elementSizeBytes);
}
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor, int64_t elementSizeBytes) {
    impl().memHostUnregisterMemRef(rank, descriptor, elementSizeBytes);
}

} // extern "C"
