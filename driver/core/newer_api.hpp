// Entry points of Level Zero 1.6 to 1.10 (and one experimental extension)
// that the driver implements while it builds against the 1.4 headers (Debian
// 12's libze-dev): Intel's SYCL runtime calls them through loaders of those
// versions (its Level Zero v2 adapter cannot finish a queue without
// zeCommandListHostSynchronize, and its in-order queues signal counter-based
// events).
//
// A loader asks for each DDI table with its own API version and reads the
// entry points it knows from slots after the 1.4 fields, in the order the
// specification added them. The tables below declare the slots up to the last
// one the driver fills; a slot is filled only when the caller's version has it
// (the table of a 1.4 loader, such as Debian 12's 1.8.12, ends with the 1.4
// fields). The function types and the descriptor are those of the
// specification.
#pragma once

#include <level_zero/ze_ddi.h>

#include <cstddef>
#include <cstdint>

namespace ze_driver {

constexpr ze_api_version_t kApiVersion1_6 = static_cast<ze_api_version_t>(ZE_MAKE_VERSION(1, 6));
constexpr ze_api_version_t kApiVersion1_7 = static_cast<ze_api_version_t>(ZE_MAKE_VERSION(1, 7));
constexpr ze_api_version_t kApiVersion1_10 = static_cast<ze_api_version_t>(ZE_MAKE_VERSION(1, 10));

// zeInitDrivers (1.10): which kinds of driver the caller wants.
constexpr ze_structure_type_t kInitDriverTypeDescType =
    static_cast<ze_structure_type_t>(0x00020021);
constexpr uint32_t kInitDriverTypeGpu = 1u << 0;
constexpr uint32_t kInitDriverTypeNpu = 1u << 1;
struct InitDriverTypeDesc {
    ze_structure_type_t stype;
    const void *pNext;
    uint32_t flags;
};

using InitDriversFn = ze_result_t(ZE_APICALL *)(uint32_t *, ze_driver_handle_t *,
                                                InitDriverTypeDesc *);
using DeviceGetRootDeviceFn = ze_result_t(ZE_APICALL *)(ze_device_handle_t, ze_device_handle_t *);
using CommandListHostSynchronizeFn = ze_result_t(ZE_APICALL *)(ze_command_list_handle_t, uint64_t);

// ZE_experimental_event_pool_counter_based: a pNext of ze_event_pool_desc_t
// that makes the pool's events counter-based (event.hpp).
constexpr ze_structure_type_t kCounterBasedEventPoolDescType =
    static_cast<ze_structure_type_t>(0x00020014);
constexpr uint32_t kCounterBasedImmediate = 1u << 0;
constexpr uint32_t kCounterBasedNonImmediate = 1u << 1;
struct CounterBasedEventPoolDesc {
    ze_structure_type_t stype;
    const void *pNext;
    uint32_t flags;
};

// The tables with their newer slots: global (zeInitDrivers, 1.10), device
// (zeDeviceGetRootDevice, 1.7; the slot right after the 1.4 fields), command
// list (zeCommandListHostSynchronize, 1.6; likewise).
struct GlobalTable1_10 {
    ze_global_dditable_t v1_4;
    InitDriversFn pfnInitDrivers;
};
struct DeviceTable1_7 {
    ze_device_dditable_t v1_4;
    DeviceGetRootDeviceFn pfnGetRootDevice;
};
struct CommandListTable1_6 {
    ze_command_list_dditable_t v1_4;
    CommandListHostSynchronizeFn pfnHostSynchronize;
};
static_assert(offsetof(GlobalTable1_10, pfnInitDrivers) == sizeof(ze_global_dditable_t));
static_assert(offsetof(DeviceTable1_7, pfnGetRootDevice) == sizeof(ze_device_dditable_t));
static_assert(offsetof(CommandListTable1_6, pfnHostSynchronize) ==
              sizeof(ze_command_list_dditable_t));

// The caller's table seen with the slots of version `since`, or null when the
// caller's version predates them.
template <class Newer, class Table>
Newer *newerTable(Table *table, ze_api_version_t version, ze_api_version_t since) {
    return ZE_MINOR_VERSION(version) >= ZE_MINOR_VERSION(since) ? reinterpret_cast<Newer *>(table)
                                                                : nullptr;
}

} // namespace ze_driver
