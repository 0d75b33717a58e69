// What gpuCreateStream's two pointers name. Two conventions exist for them:
// ours (a ze_device_handle_t and a ze_context_handle_t) and IMEX's Level Zero
// runtime (a pointer to a ze_device_type_t filter, a context, either, or
// neither). Both are accepted where they cannot be confused: a device handle
// is recognised by enumerating every driver's devices, so any other non-NULL
// device pointer is read as IMEX's ze_device_type_t filter.
#pragma once

#include <level_zero/ze_api.h>

namespace imex_l0 {

struct StreamTarget {
    ze_device_handle_t device = nullptr;   // NULL: the temporary (default) engine
    ze_context_handle_t context = nullptr; // NULL: the engine creates and owns one
};

// Throws invalid_arguments or not_found with a message naming the form it saw.
StreamTarget resolveStreamTarget(void *device, void *context);

} // namespace imex_l0
