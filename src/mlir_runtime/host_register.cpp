#include "mlir_runtime/host_register.hpp"

#include "common/status.hpp"

namespace imex_l0::mgpu {

namespace {

using ImportFn = ze_result_t (*)(ze_driver_handle_t, void *, size_t);
using ReleaseFn = ze_result_t (*)(ze_driver_handle_t, void *);

bool reachesHostAllocations(Engine &engine) {
    ze_device_memory_access_properties_t access = {
        ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
    IMEX_L0_ZE(zeDeviceGetMemoryAccessProperties(engine.device(), &access));
    return access.sharedSystemAllocCapabilities != 0;
}

template <typename Fn> Fn extension(Engine &engine, const char *name) {
    void *function = nullptr;
    if (zeDriverGetExtensionFunctionAddress(engine.driver(), name, &function) != ZE_RESULT_SUCCESS)
        return nullptr;
    return reinterpret_cast<Fn>(function);
}

} // namespace

void registerHostMemory(Engine &engine, void *ptr, size_t bytes) {
    if (!ptr || bytes == 0)
        failInvalid("the memref to register has no memory (a null pointer or no elements)");
    if (reachesHostAllocations(engine))
        return;
    auto import = extension<ImportFn>(engine, "zexDriverImportExternalPointer");
    if (!import)
        fail(imex_l0_unimplemented,
             "the device cannot reach host allocations and its driver cannot import them "
             "(no zexDriverImportExternalPointer): allocate the buffer with gpu.alloc "
             "host_shared instead of registering host memory");
    IMEX_L0_ZE(import(engine.driver(), ptr, bytes));
}

void unregisterHostMemory(Engine &engine, void *ptr) {
    if (!ptr || reachesHostAllocations(engine))
        return;
    if (auto release = extension<ReleaseFn>(engine, "zexDriverReleaseImportedPointer"))
        IMEX_L0_ZE(release(engine.driver(), ptr));
}

} // namespace imex_l0::mgpu
