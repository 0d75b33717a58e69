// Fault injection: the N-th call of an entry point (or of any) fails with a
// chosen result before doing anything. Armed from ZE_OPENCL_FAULT at load or
// through the zexOpenclSetFault extension function (include/ze_opencl_ext.h).
#pragma once

#include <level_zero/ze_api.h>

#include <atomic>

namespace ze_driver {

namespace fault {
// Cheap enough for every entry point: one relaxed load when nothing is armed.
extern std::atomic<bool> armed;
// Counts the call; true when this call must fail with *result.
bool fire(const char *entry, ze_result_t *result);
} // namespace fault

// Looks up the driver's extension functions by name (nullptr if unknown).
void *extensionFunction(const char *name);

} // namespace ze_driver
