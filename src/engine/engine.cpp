#include "engine/engine.hpp"

#include "common/options.hpp"
#include "compute/kernel_cache.hpp"

#include <atomic>
#include <cstdlib>
#include <vector>

namespace imex_l0 {

namespace {
std::atomic<uint64_t> nextSerial{1};
}

Engine::Engine(ze_driver_handle_t driver, ze_device_handle_t device, ze_context_handle_t context)
    : serial_(nextSerial.fetch_add(1, std::memory_order_relaxed)), driver_(driver),
      device_(device), context_(context) {}

Engine::~Engine() {
    // Kernels and modules, then events, then the context they live in.
    kernels_.reset();
    timestampEvents_.reset();
    events_.reset();
    if (ownsContext_ && context_)
        zeContextDestroy(context_);
}

ze_device_handle_t Engine::firstDriverDevice(uint32_t deviceIndex, ze_driver_handle_t *driverOut) {
    IMEX_L0_ZE(zeInit(0));
    uint32_t count = 1;
    ze_driver_handle_t driver = nullptr;
    IMEX_L0_ZE(zeDriverGet(&count, &driver));
    if (count == 0 || !driver)
        fail(imex_l0_not_found, "no Level Zero driver is installed");
    uint32_t ndevices = 0;
    IMEX_L0_ZE(zeDeviceGet(driver, &ndevices, nullptr));
    if (deviceIndex >= ndevices)
        fail(imex_l0_not_found, "device " + std::to_string(deviceIndex) +
                                    " does not exist: the first driver has " +
                                    std::to_string(ndevices) + " device(s)");
    std::vector<ze_device_handle_t> devices(ndevices);
    IMEX_L0_ZE(zeDeviceGet(driver, &ndevices, devices.data()));
    if (driverOut)
        *driverOut = driver;
    return devices[deviceIndex];
}

std::unique_ptr<Engine> Engine::createDefault(uint32_t deviceIndex) {
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = firstDriverDevice(deviceIndex, &driver);
    auto engine = std::make_unique<Engine>(driver, device, nullptr);
    engine->init();
    return engine;
}

ze_driver_handle_t Engine::driverOf(ze_device_handle_t device) {
    if (!device)
        failInvalid("device is NULL");
    uint32_t ndrivers = 0;
    IMEX_L0_ZE(zeDriverGet(&ndrivers, nullptr));
    std::vector<ze_driver_handle_t> drivers(ndrivers);
    IMEX_L0_ZE(zeDriverGet(&ndrivers, drivers.data()));
    for (auto driver : drivers) {
        uint32_t ndevices = 0;
        IMEX_L0_ZE(zeDeviceGet(driver, &ndevices, nullptr));
        std::vector<ze_device_handle_t> devices(ndevices);
        IMEX_L0_ZE(zeDeviceGet(driver, &ndevices, devices.data()));
        for (auto d : devices)
            if (d == device)
                return driver;
    }
    fail(imex_l0_not_found, "device is not a device of any Level Zero driver");
}

EventPool &Engine::timestampEvents() {
    std::call_once(timestampEventsOnce_, [this] {
        uint32_t chunk =
            static_cast<uint32_t>(std::strtoul(options().eventPoolChunk.c_str(), nullptr, 10));
        timestampEvents_ = std::make_unique<EventPool>(context_, device_, chunk,
                                                       ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
        timestampPool_.store(timestampEvents_.get(), std::memory_order_release);
    });
    return *timestampEvents_;
}

EventPool &Engine::poolOf(ze_event_handle_t event) {
    // Until a profiling stream made the timestamp pool, every event of the
    // engine is events_'s: no lookup in the registry of all pools (a global
    // lock), which would cost every release of a returned event.
    EventPool *timed = timestampPool_.load(std::memory_order_acquire);
    return timed && EventPool::poolOf(event) == timed ? *timed : *events_;
}

void Engine::checkAllocationSize(size_t size) const {
    if (size > maxMemAllocSize_)
        failInvalid("size " + std::to_string(size) + " exceeds the device's maximum allocation of " +
                    std::to_string(maxMemAllocSize_) + " bytes (ze_device_properties_t."
                    "maxMemAllocSize)");
}

namespace {

// -cl-ext (and -U) options removing what the device lacks, from what Level
// Zero reports of it.
std::string deviceFeatureOptions(ze_device_handle_t device,
                                 const ze_device_module_properties_t &module,
                                 const ze_device_properties_t &props) {
    std::vector<std::string> absent;
    // Without FP16 half stays a storage format: arithmetic on it is a compile
    // error, not a module the device cannot link.
    if (!(module.flags & ZE_DEVICE_MODULE_FLAG_FP16))
        absent.push_back("cl_khr_fp16");
    if (!(module.flags & ZE_DEVICE_MODULE_FLAG_FP64))
        absent.insert(absent.end(), {"cl_khr_fp64", "__opencl_c_fp64"});
    if (!(module.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS))
        absent.insert(absent.end(), {"cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"});
    if (!(module.flags & ZE_DEVICE_MODULE_FLAG_DP4A))
        absent.insert(absent.end(), {"cl_khr_integer_dot_product",
                                     "__opencl_c_integer_dot_product_input_4x8bit",
                                     "__opencl_c_integer_dot_product_input_4x8bit_packed"});
    // Intel's video motion estimation exists on Intel GPUs only.
    if (props.vendorId != 0x8086 || props.type != ZE_DEVICE_TYPE_GPU)
        absent.push_back("cl_intel_device_side_avc_motion_estimation");
    ze_device_image_properties_t images = {ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
    ze_result_t r = zeDeviceGetImageProperties(device, &images);
    if (r != ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
        checkZe(r, "zeDeviceGetImageProperties");
    bool hasImages = r == ZE_RESULT_SUCCESS && images.maxImageDims2D > 0;
    if (!hasImages)
        absent.insert(absent.end(),
                      {"cl_khr_3d_image_writes", "cl_khr_depth_images", "cl_khr_mipmap_image",
                       "cl_khr_mipmap_image_writes", "cl_khr_srgb_image_writes",
                       "__opencl_c_images", "__opencl_c_read_write_images",
                       "__opencl_c_3d_image_writes"});
    std::string options;
    for (const std::string &name : absent)
        options += (options.empty() ? "-cl-ext=-" : ",-") + name;
    if (!hasImages)
        options += " -U__IMAGE_SUPPORT__";
    return options;
}

} // namespace

void Engine::init() {
    if (!driver_)
        failInvalid("driver is NULL");
    if (!device_)
        failInvalid("device is NULL");

    // The device must belong to the driver: a mismatch would otherwise only
    // surface as an obscure failure at the first allocation or launch.
    uint32_t count = 0;
    IMEX_L0_ZE(zeDeviceGet(driver_, &count, nullptr));
    std::vector<ze_device_handle_t> devices(count);
    IMEX_L0_ZE(zeDeviceGet(driver_, &count, devices.data()));
    bool found = false;
    for (auto d : devices)
        found = found || d == device_;
    if (!found)
        failInvalid("device is not a device of driver (pass a device from zeDeviceGet(driver))");

    // The loader wraps handles when it intercepts (several drivers, or asked
    // to), and 1.8.12 then hands out a raw build-log handle that crashes it.
    uint32_t ndrivers = 0;
    IMEX_L0_ZE(zeDriverGet(&ndrivers, nullptr));
    buildLogsReadable_ = ndrivers == 1 && options().loaderIntercept != "1";

    ze_device_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    IMEX_L0_ZE(zeDeviceGetProperties(device_, &props));
    deviceName_ = props.name;
    maxMemAllocSize_ = props.maxMemAllocSize;
    // ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES (1.0): timerResolution is ns per tick.
    timerResolutionNs_ = props.timerResolution ? props.timerResolution : 1;
    kernelTimestampValidBits_ = props.kernelTimestampValidBits ? props.kernelTimestampValidBits : 64;

    compute_ = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    IMEX_L0_ZE(zeDeviceGetComputeProperties(device_, &compute_));

    ze_device_module_properties_t module = {ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
    IMEX_L0_ZE(zeDeviceGetModuleProperties(device_, &module));
    // Level Zero reports ZE_MAKE_VERSION(major, minor) (1.2 = 0x00010002);
    // the compiler takes the SPIR-V header's word (1.2 = 0x00010200).
    uint32_t v = module.spirvVersionSupported;
    if (v != 0)
        spirvVersion_ = (ZE_MAJOR_VERSION(v) << 16) | (ZE_MINOR_VERSION(v) << 8);
    featureOptions_ = deviceFeatureOptions(device_, module, props);

    uint32_t groups = 0;
    IMEX_L0_ZE(zeDeviceGetCommandQueueGroupProperties(device_, &groups, nullptr));
    std::vector<ze_command_queue_group_properties_t> groupProps(
        groups, {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES});
    IMEX_L0_ZE(zeDeviceGetCommandQueueGroupProperties(device_, &groups, groupProps.data()));
    bool haveCompute = false;
    for (uint32_t i = 0; i < groups && !haveCompute; ++i) {
        if (groupProps[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
            computeOrdinal_ = i;
            haveCompute = true;
        }
    }
    if (!haveCompute)
        fail(imex_l0_unimplemented, "device " + deviceName_ + " has no compute queue group");

    if (!context_) {
        ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
        IMEX_L0_ZE(zeContextCreate(driver_, &desc, &context_));
        ownsContext_ = true;
    }

    uint32_t chunk = static_cast<uint32_t>(std::strtoul(options().eventPoolChunk.c_str(), nullptr, 10));
    events_ = std::make_unique<EventPool>(context_, device_, chunk);
    probeEvent_ = events_->acquire();
    IMEX_L0_ZE(zeEventHostSignal(probeEvent_));
    kernels_ = std::make_unique<KernelCache>(*this);
}

} // namespace imex_l0
