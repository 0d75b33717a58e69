// Host memory the application allocated itself (malloc, a framework's
// buffer), made reachable by the GPU in place: Intel's extension functions
// zexDriverImportExternalPointer and zexDriverReleaseImportedPointer, on
// cuMemHostRegister. Kernels, copies
// and fills then take the host pointer itself (CUDA's unified addressing
// gives the range the same address on every device), as upstream MLIR's
// gpu.host_register expects. A range is registered for every device of the
// process (CUDA's PORTABLE flag), as Level Zero imports it for the driver.
#include "backend.hpp"
#include "device.hpp"
#include "driver.hpp"

#include <iterator>
#include <map>
#include <mutex>
#include <string>

namespace ze_driver {

namespace {

using ze_cuda::CUDA_SUCCESS;

// The imported ranges by base address; guarded by importsMutex.
std::mutex importsMutex;
std::map<uintptr_t, size_t> &imports() {
    static auto *ranges = new std::map<uintptr_t, size_t>; // outlives every caller
    return *ranges;
}

ze_result_t ZE_APICALL zexDriverImportExternalPointer(ze_driver_handle_t hDriver, void *ptr,
                                                      size_t size) {
    return boundary(__func__, [&] {
        Driver *driver = fromHandle<Driver>(hDriver);
        notNull(ptr);
        check(size > 0, ZE_RESULT_ERROR_INVALID_SIZE);
        auto base = reinterpret_cast<uintptr_t>(ptr);
        check(base + size > base, ZE_RESULT_ERROR_INVALID_SIZE);
        std::lock_guard<std::mutex> lock(importsMutex);
        // Overlapping imports are refused (CUDA registers a page once): the
        // last range starting before this one's end must end before it starts.
        auto after = imports().lower_bound(base + size);
        check(after == imports().begin() ||
                  std::prev(after)->first + std::prev(after)->second <= base,
              ZE_RESULT_ERROR_INVALID_ARGUMENT);
        Device *device = driver->devices().front().get();
        makeCurrent(device);
        ze_cuda::CUresult r = cuda().cuMemHostRegister(ptr, size,
                                                       ze_cuda::CU_MEMHOSTREGISTER_PORTABLE |
                                                           ze_cuda::CU_MEMHOSTREGISTER_DEVICEMAP);
        // A range CUDA already has (cuMemHostAlloc memory, or registered by
        // someone else) is the application's mistake; so is memory CUDA
        // cannot pin (a mapping of a device file, read-only memory).
        check(r != ze_cuda::CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED && r != 1 /* INVALID_VALUE */,
              ZE_RESULT_ERROR_INVALID_ARGUMENT);
        checkCuda(r);
        // Kernels get the host pointer: every device must see the range at
        // that address (true wherever the GPU can use host pointers for
        // registered memory, as on x86-64 Linux).
        for (const auto &d : driver->devices()) {
            makeCurrent(d.get());
            ze_cuda::CUdeviceptr mapped = 0;
            if (cuda().cuMemHostGetDevicePointer(&mapped, ptr, 0) != CUDA_SUCCESS ||
                mapped != base) {
                cuda().cuMemHostUnregister(ptr);
                fail(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
            }
        }
        imports()[base] = size;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zexDriverReleaseImportedPointer(ze_driver_handle_t hDriver, void *ptr) {
    return boundary(__func__, [&] {
        Driver *driver = fromHandle<Driver>(hDriver);
        notNull(ptr);
        std::lock_guard<std::mutex> lock(importsMutex);
        // The pointer the import was given, not one inside the range.
        auto found = imports().find(reinterpret_cast<uintptr_t>(ptr));
        check(found != imports().end(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        imports().erase(found);
        makeCurrent(driver->devices().front().get());
        checkCuda(cuda().cuMemHostUnregister(ptr));
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

void *backend::extensionFunction(const char *name) {
    const std::string wanted = name;
    if (wanted == "zexDriverImportExternalPointer")
        return reinterpret_cast<void *>(&zexDriverImportExternalPointer);
    if (wanted == "zexDriverReleaseImportedPointer")
        return reinterpret_cast<void *>(&zexDriverReleaseImportedPointer);
    return nullptr;
}

} // namespace ze_driver
