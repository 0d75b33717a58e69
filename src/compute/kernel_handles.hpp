// The Level Zero kernel handles behind library kernels, process-wide. A
// handle's argument values and group size are state the library caches per
// kernel entry (kernel_entry.hpp), so two entries over one handle would each
// skip setting what the other changed: importing a handle the library
// already launches (its own, or one imported before and still alive) is
// refused.
#pragma once

#include <level_zero/ze_api.h>

namespace imex_l0::kernel_handles {

// False when the handle is claimed already.
bool claim(ze_kernel_handle_t handle);
void release(ze_kernel_handle_t handle);

} // namespace imex_l0::kernel_handles
