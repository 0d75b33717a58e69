// Initialisation (the backend finds the drivers) and the Global and Driver
// DDI tables.
#include "driver.hpp"
#include "backend.hpp"
#include "device.hpp"
#include "fault.hpp"
#include "newer_api.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <cstring>
#include <mutex>

namespace ze_driver {

Driver::Driver(std::string name) : Object(kTag), name_(std::move(name)) {}

Driver::~Driver() = default;

void Driver::addDevice(std::unique_ptr<Device> device) {
    devices_.push_back(std::move(device));
}

void Driver::addContext(Context *context) {
    std::lock_guard<std::mutex> lock(contextsMutex_);
    contexts_.push_back(context);
}

void Driver::removeContext(Context *context) {
    std::lock_guard<std::mutex> lock(contextsMutex_);
    contexts_.erase(std::remove(contexts_.begin(), contexts_.end(), context), contexts_.end());
}

bool Driver::anyContext(const std::function<bool(Context *)> &act) {
    // A context being destroyed waits in removeContext until this returns, so
    // every context in the list is whole.
    std::lock_guard<std::mutex> lock(contextsMutex_);
    return std::any_of(contexts_.begin(), contexts_.end(), act);
}

bool Driver::owns(const Device *device) const {
    return std::any_of(devices_.begin(), devices_.end(),
                       [&](const std::unique_ptr<Device> &d) { return d.get() == device; });
}

namespace {

// The drivers the backend found. They live for the rest of the process: they
// are deliberately leaked.
std::vector<Driver *> &drivers() {
    static auto *found = new std::vector<Driver *>;
    return *found;
}

void discover() {
    for (auto &driver : backend::discover())
        drivers().push_back(driver.release());
}

// The loader calls zeInit once while choosing drivers and again for the
// application; discovery happens once and both calls get its result. The flags
// (GPU_ONLY, VPU_ONLY) are accepted as they are: frameworks pass GPU_ONLY and
// the driver may be told to report its devices as GPUs.
//
// A backend that finds nothing (no OpenCL platform, no NVIDIA GPU) still
// initialises, with no drivers: the system loader (1.8.12) fails the
// application's zeInit when a driver listed after another fails its own with
// the validation layer on, so an absent GPU would take the CPU device away.
void discoverOnce() {
    static std::once_flag once;
    std::call_once(once, discover);
}

ze_result_t ZE_APICALL zeInit(ze_init_flags_t flags) {
    (void)flags;
    return boundary(__func__, [&] {
        discoverOnce();
        return ZE_RESULT_SUCCESS;
    });
}

// zeDriverGet's count-then-fill protocol over `list`.
ze_result_t listDrivers(const std::vector<Driver *> &list, uint32_t *pCount,
                        ze_driver_handle_t *phDrivers) {
    notNull(pCount);
    uint32_t n = static_cast<uint32_t>(list.size());
    if (*pCount == 0 || phDrivers == nullptr) {
        *pCount = n;
        return ZE_RESULT_SUCCESS;
    }
    *pCount = std::min(*pCount, n);
    for (uint32_t i = 0; i < *pCount; ++i)
        phDrivers[i] = toHandle<Driver, ze_driver_handle_t>(list[i]);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeDriverGet(uint32_t *pCount, ze_driver_handle_t *phDrivers) {
    return boundary(__func__, [&] { return listDrivers(drivers(), pCount, phDrivers); });
}

// zeInit and zeDriverGet in one call (Level Zero 1.10), for the kinds of
// driver desc->flags asks for: a driver is a GPU driver when one of its
// devices is a GPU (the OpenCL backend's is one with ZE_OPENCL_DEVICE_TYPE=GPU),
// an NPU driver when one is a VPU.
ze_result_t ZE_APICALL zeInitDrivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
                                     InitDriverTypeDesc *desc) {
    return boundary(__func__, [&] {
        notNull(pCount);
        notNull(desc);
        check(desc->stype == kInitDriverTypeDescType, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        discoverOnce();
        auto wanted = [&](const Device &device) {
            ze_device_type_t type = device.info().properties.type;
            return ((desc->flags & kInitDriverTypeGpu) && type == ZE_DEVICE_TYPE_GPU) ||
                   ((desc->flags & kInitDriverTypeNpu) && type == ZE_DEVICE_TYPE_VPU);
        };
        std::vector<Driver *> chosen;
        for (Driver *driver : drivers())
            if (std::any_of(driver->devices().begin(), driver->devices().end(),
                            [&](const std::unique_ptr<Device> &d) { return wanted(*d); }))
                chosen.push_back(driver);
        return listDrivers(chosen, pCount, phDrivers);
    });
}

ze_result_t ZE_APICALL zeDriverGetApiVersion(ze_driver_handle_t hDriver,
                                             ze_api_version_t *version) {
    return boundary(__func__, [&] {
        fromHandle<Driver>(hDriver);
        *notNull(version) = ZE_API_VERSION_CURRENT;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDriverGetProperties(ze_driver_handle_t hDriver,
                                             ze_driver_properties_t *p) {
    return boundary(__func__, [&] {
        Driver *driver = fromHandle<Driver>(hDriver);
        notNull(p);
        // Stable across runs: derived from the driver's name only.
        uint64_t a = fnv1a(driver->name(), 0), b = fnv1a(driver->name(), 0x5a45);
        std::memcpy(p->uuid.id, &a, 8);
        std::memcpy(p->uuid.id + 8, &b, 8);
        p->driverVersion = 1;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDriverGetIpcProperties(ze_driver_handle_t hDriver,
                                                ze_driver_ipc_properties_t *p) {
    return boundary(__func__, [&] {
        Driver *driver = fromHandle<Driver>(hDriver);
        // Event pools where the backend takes their states from a memory
        // file; memory where the backend can share it.
        notNull(p)->flags =
            (backend::eventPoolIpcSupported() ? ZE_IPC_PROPERTY_FLAG_EVENT_POOL : 0) |
            (backend::memoryIpcSupported(driver) ? ZE_IPC_PROPERTY_FLAG_MEMORY : 0);
        return ZE_RESULT_SUCCESS;
    });
}

// The extensions the driver implements, announced so frameworks that look
// for them use them: zeKernelSetGlobalOffsetExp, and modules of several
// SPIR-V modules linked (ze_module_program_exp_desc_t).
ze_result_t ZE_APICALL zeDriverGetExtensionProperties(ze_driver_handle_t hDriver, uint32_t *pCount,
                                                      ze_driver_extension_properties_t *props) {
    static const ze_driver_extension_properties_t kExtensions[] = {
        {ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_CURRENT},
        {ZE_MODULE_PROGRAM_EXP_NAME, ZE_MODULE_PROGRAM_EXP_VERSION_CURRENT},
        // version 1.0 (newer_api.hpp)
        {"ZE_experimental_event_pool_counter_based", ZE_MAKE_VERSION(1, 0)},
    };
    constexpr uint32_t kCount = sizeof(kExtensions) / sizeof(kExtensions[0]);
    return boundary(__func__, [&] {
        fromHandle<Driver>(hDriver);
        notNull(pCount);
        if (*pCount == 0 || props == nullptr) {
            *pCount = kCount;
            return ZE_RESULT_SUCCESS;
        }
        *pCount = std::min(*pCount, kCount);
        std::copy(kExtensions, kExtensions + *pCount, props);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDriverGetExtensionFunctionAddress(ze_driver_handle_t hDriver,
                                                           const char *name, void **ppFunction) {
    return boundary(__func__, [&] {
        fromHandle<Driver>(hDriver);
        notNull(name);
        void *function = extensionFunction(name);
        *notNull(ppFunction) = function;
        return function ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
    });
}

} // namespace

extern "C" {

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetGlobalProcAddrTable(ze_api_version_t version,
                                                             ze_global_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnInit = zeInit;
    if (auto *newer = newerTable<GlobalTable1_10>(t, version, kApiVersion1_10))
        newer->pfnInitDrivers = zeInitDrivers;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDriverProcAddrTable(ze_api_version_t version,
                                                             ze_driver_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnGet = zeDriverGet;
    t->pfnGetApiVersion = zeDriverGetApiVersion;
    t->pfnGetProperties = zeDriverGetProperties;
    t->pfnGetIpcProperties = zeDriverGetIpcProperties;
    t->pfnGetExtensionProperties = zeDriverGetExtensionProperties;
    t->pfnGetExtensionFunctionAddress = zeDriverGetExtensionFunctionAddress;
    return ZE_RESULT_SUCCESS;
}

} // extern "C"

} // namespace ze_driver
