#include "gpu_runtime/stream_target.hpp"

#include "common/status.hpp"

#include <string>
#include <vector>

namespace imex_l0 {

namespace {

std::vector<ze_driver_handle_t> allDrivers() {
    IMEX_L0_ZE(zeInit(0));
    uint32_t n = 0;
    IMEX_L0_ZE(zeDriverGet(&n, nullptr));
    std::vector<ze_driver_handle_t> drivers(n);
    IMEX_L0_ZE(zeDriverGet(&n, drivers.data()));
    drivers.resize(n);
    return drivers;
}

std::vector<ze_device_handle_t> devicesOf(ze_driver_handle_t driver) {
    uint32_t n = 0;
    IMEX_L0_ZE(zeDeviceGet(driver, &n, nullptr));
    std::vector<ze_device_handle_t> devices(n);
    IMEX_L0_ZE(zeDeviceGet(driver, &n, devices.data()));
    devices.resize(n);
    return devices;
}

bool isDeviceHandle(void *candidate) {
    for (ze_driver_handle_t driver : allDrivers())
        for (ze_device_handle_t d : devicesOf(driver))
            if (d == candidate)
                return true;
    return false;
}

// Level Zero has no query for a context's driver (1.4): a one-event pool on
// the device is the cheapest call that only succeeds when the two match.
bool contextAccepts(ze_context_handle_t context, ze_device_handle_t device) {
    ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, 0, 1};
    ze_event_pool_handle_t pool = nullptr;
    if (zeEventPoolCreate(context, &desc, 1, &device, &pool) != ZE_RESULT_SUCCESS)
        return false;
    zeEventPoolDestroy(pool);
    return true;
}

// The first device, in driver order, of `type` (any type when `anyType`)
// that `context` accepts (any device when context is NULL).
ze_device_handle_t firstDevice(bool anyType, ze_device_type_t type, ze_context_handle_t context) {
    for (ze_driver_handle_t driver : allDrivers()) {
        for (ze_device_handle_t d : devicesOf(driver)) {
            if (!anyType) {
                ze_device_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
                IMEX_L0_ZE(zeDeviceGetProperties(d, &props));
                if (props.type != type)
                    continue;
            }
            if (!context || contextAccepts(context, d))
                return d;
        }
    }
    return nullptr;
}

const char *typeName(ze_device_type_t type) {
    switch (type) {
    case ZE_DEVICE_TYPE_GPU: return "GPU";
    case ZE_DEVICE_TYPE_CPU: return "CPU";
    case ZE_DEVICE_TYPE_FPGA: return "FPGA";
    case ZE_DEVICE_TYPE_MCA: return "MCA";
    case ZE_DEVICE_TYPE_VPU: return "VPU";
    default: return "?";
    }
}

} // namespace

StreamTarget resolveStreamTarget(void *device, void *context) {
    auto *ctx = static_cast<ze_context_handle_t>(context);
    if (!device && !ctx)
        return {};
    if (!device) {
        // IMEX's context-only form: the first device the context belongs with.
        ze_device_handle_t d = firstDevice(true, ZE_DEVICE_TYPE_GPU, ctx);
        if (!d)
            failInvalid("context is not a context of any Level Zero driver's devices (device "
                        "was NULL, so the first device of the context's driver was looked for)");
        return {d, ctx};
    }
    if (isDeviceHandle(device))
        return {static_cast<ze_device_handle_t>(device), ctx};
    // Not a device of any driver: IMEX's form, a pointer to a ze_device_type_t.
    uint32_t type = *static_cast<const uint32_t *>(device);
    if (type < ZE_DEVICE_TYPE_GPU || type > ZE_DEVICE_TYPE_VPU)
        failInvalid("device is neither a device handle of any Level Zero driver nor a pointer to "
                    "a ze_device_type_t (it points at the value " + std::to_string(type) +
                    "): pass a ze_device_handle_t, a ze_device_type_t *, or NULL");
    auto wanted = static_cast<ze_device_type_t>(type);
    ze_device_handle_t d = firstDevice(false, wanted, ctx);
    if (!d)
        fail(imex_l0_not_found, std::string("no Level Zero device of type ") + typeName(wanted) +
                                    (ctx ? " in the given context" : "") +
                                    " (device pointed at a ze_device_type_t filter)");
    return {d, ctx};
}

} // namespace imex_l0
