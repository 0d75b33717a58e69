// gpu.host_register / gpu.host_unregister (mgpuMemHostRegisterMemRef and
// mgpuMemHostUnregisterMemRef): host memory that kernels may then read and
// write in place, by the same pointer, as CUDA's cuMemHostRegister gives.
// Level Zero has two ways, tried in order:
//  - the device reaches the host's own allocations already
//    (ze_device_memory_access_properties_t.sharedSystemAllocCapabilities, as
//    on the project's CPU driver): nothing to do;
//  - the driver can import a host range (Intel's zexDriverImportExternalPointer
//    extension): imported, and released by the unregistration.
// Otherwise registration fails with a message saying to allocate the buffer
// with gpu.alloc host_shared instead. A copy kept in device-visible memory is
// no way: the kernels are given the host pointer itself.
#pragma once

#include "engine/engine.hpp"

#include <cstddef>

namespace imex_l0::mgpu {

void registerHostMemory(Engine &engine, void *ptr, size_t bytes);
void unregisterHostMemory(Engine &engine, void *ptr);

} // namespace imex_l0::mgpu
