#include "memory/usm.hpp"

#include "common/status.hpp"

namespace imex_l0 {

UsmAllocation usmAllocation(ze_context_handle_t context, const void *ptr) {
    UsmAllocation a;
    ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t device = nullptr;
    IMEX_L0_ZE(zeMemGetAllocProperties(context, ptr, &props, &device));
    a.type = props.type;
    if (a.type == ZE_MEMORY_TYPE_UNKNOWN)
        return a; // the address range of memory Level Zero does not know is undefined
    void *base = nullptr;
    IMEX_L0_ZE(zeMemGetAddressRange(context, ptr, &base, &a.size));
    a.base = static_cast<const char *>(base);
    return a;
}

const char *usmTypeName(ze_memory_type_t type) {
    switch (type) {
    case ZE_MEMORY_TYPE_HOST:
        return "host";
    case ZE_MEMORY_TYPE_DEVICE:
        return "device";
    case ZE_MEMORY_TYPE_SHARED:
        return "shared";
    default:
        return "not USM";
    }
}

} // namespace imex_l0
