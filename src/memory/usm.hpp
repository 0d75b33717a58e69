// What Level Zero knows of a pointer in a context: its USM type and, for USM,
// the allocation it lies in. Shared by every check of user pointers.
#pragma once

#include <level_zero/ze_api.h>

#include <cstddef>

namespace imex_l0 {

struct UsmAllocation {
    ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN; // UNKNOWN: not USM of the context
    const char *base = nullptr;
    size_t size = 0;

    // Bytes from ptr to the end of the allocation (ptr must lie inside it).
    size_t bytesFrom(const void *ptr) const {
        return size - static_cast<size_t>(static_cast<const char *>(ptr) - base);
    }
};

// Throws when a query fails; a pointer that is not USM is type UNKNOWN.
UsmAllocation usmAllocation(ze_context_handle_t context, const void *ptr);

const char *usmTypeName(ze_memory_type_t type);

} // namespace imex_l0
