// The OpenCL backend's discovery (../core/backend.hpp): one driver per
// platform with at least one device with SVM, each device's properties read
// from OpenCL once.
#include "backend.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "options.hpp"
#include "work_group_collectives.hpp"

#include <CL/cl_ext.h> // CL_DEVICE_HALF_FP_CONFIG (cl_khr_fp16)

#include <algorithm>
#include <cctype>
#include <cstring>

namespace ze_driver {

const char *const backend::kName = "opencl";

cl_context retainClContext(Driver *driver) {
    DriverNative &native = driver->native();
    std::lock_guard<std::mutex> lock(native.contextMutex);
    if (native.context == nullptr) {
        std::vector<cl_device_id> ids;
        for (const auto &device : driver->devices())
            ids.push_back(device->native().id);
        cl_context_properties props[] = {
            CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(native.platform), 0};
        cl_int err = CL_SUCCESS;
        cl_context created = clCreateContext(props, static_cast<cl_uint>(ids.size()), ids.data(),
                                             nullptr, nullptr, &err);
        checkCl(err);
        native.context = created;
    }
    checkCl(clRetainContext(native.context));
    return native.context;
}

namespace {

std::string platformInfo(cl_platform_id platform, cl_platform_info what) {
    size_t size = 0;
    if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return {};
    std::string s(size, '\0');
    clGetPlatformInfo(platform, what, size, s.data(), nullptr);
    s.resize(std::strlen(s.c_str()));
    return s;
}

template <class T> T deviceInfo(cl_device_id id, cl_device_info what, T fallback = T{}) {
    T value{};
    return clGetDeviceInfo(id, what, sizeof(value), &value, nullptr) == CL_SUCCESS ? value
                                                                                   : fallback;
}

std::string deviceString(cl_device_id id, cl_device_info what) {
    size_t size = 0;
    if (clGetDeviceInfo(id, what, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return {};
    std::string s(size, '\0');
    clGetDeviceInfo(id, what, size, s.data(), nullptr);
    s.resize(std::strlen(s.c_str()));
    return s;
}

bool hasSvm(cl_device_id device) {
    return (deviceInfo<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES) &
            CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0;
}

// OpenCL and L0 number the floating-point capabilities differently.
ze_device_fp_flags_t fpFlags(cl_device_fp_config c) {
    ze_device_fp_flags_t f = 0;
    if (c & CL_FP_DENORM)
        f |= ZE_DEVICE_FP_FLAG_DENORM;
    if (c & CL_FP_INF_NAN)
        f |= ZE_DEVICE_FP_FLAG_INF_NAN;
    if (c & CL_FP_ROUND_TO_NEAREST)
        f |= ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST;
    if (c & CL_FP_ROUND_TO_ZERO)
        f |= ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO;
    if (c & CL_FP_ROUND_TO_INF)
        f |= ZE_DEVICE_FP_FLAG_ROUND_TO_INF;
    if (c & CL_FP_FMA)
        f |= ZE_DEVICE_FP_FLAG_FMA;
    if (c & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT)
        f |= ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
    if (c & CL_FP_SOFT_FLOAT)
        f |= ZE_DEVICE_FP_FLAG_SOFT_FLOAT;
    return f;
}

// The OpenCL device's type, unless ZE_OPENCL_DEVICE_TYPE says otherwise.
ze_device_type_t reportedType(cl_device_id id) {
    std::string v = options().deviceType;
    for (char &c : v)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (v == "GPU" || v == "CPU")
        return v == "GPU" ? ZE_DEVICE_TYPE_GPU : ZE_DEVICE_TYPE_CPU;
    return deviceInfo<cl_device_type>(id, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU ? ZE_DEVICE_TYPE_GPU
                                                                             : ZE_DEVICE_TYPE_CPU;
}

// cl_intel_required_subgroup_size's query; PoCL answers it on CPU devices.
constexpr cl_device_info kSubGroupSizesIntel = 0x4108;

// OpenCL's image limits; all zero on a device without images.
ze_device_image_properties_t imageProperties(cl_device_id id, uint64_t maxMemAllocSize) {
    ze_device_image_properties_t p = {};
    if (!deviceInfo<cl_bool>(id, CL_DEVICE_IMAGE_SUPPORT))
        return p;
    auto u32 = [](size_t v) { return static_cast<uint32_t>(std::min<size_t>(v, UINT32_MAX)); };
    // OpenCL has no 1D limit of its own: a 1D image is as wide as a 2D one.
    size_t width2D = deviceInfo<size_t>(id, CL_DEVICE_IMAGE2D_MAX_WIDTH);
    p.maxImageDims1D = u32(width2D);
    p.maxImageDims2D = u32(std::min(width2D, deviceInfo<size_t>(id, CL_DEVICE_IMAGE2D_MAX_HEIGHT)));
    p.maxImageDims3D = u32(std::min({deviceInfo<size_t>(id, CL_DEVICE_IMAGE3D_MAX_WIDTH),
                                     deviceInfo<size_t>(id, CL_DEVICE_IMAGE3D_MAX_HEIGHT),
                                     deviceInfo<size_t>(id, CL_DEVICE_IMAGE3D_MAX_DEPTH)}));
    // In bytes for L0, in pixels for OpenCL: counted with 1-byte pixels, the
    // limit holds for every format, and no buffer exceeds the largest
    // allocation.
    p.maxImageBufferSize =
        std::min<uint64_t>(deviceInfo<size_t>(id, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), maxMemAllocSize);
    p.maxImageArraySlices = u32(deviceInfo<size_t>(id, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE));
    p.maxSamplers = deviceInfo<cl_uint>(id, CL_DEVICE_MAX_SAMPLERS);
    p.maxReadImageArgs = deviceInfo<cl_uint>(id, CL_DEVICE_MAX_READ_IMAGE_ARGS);
    p.maxWriteImageArgs = deviceInfo<cl_uint>(id, CL_DEVICE_MAX_WRITE_IMAGE_ARGS);
    return p;
}

DeviceInfo deviceProperties(const std::string &platformName, cl_device_id id, uint32_t index) {
    DeviceInfo info;
    std::string name = deviceString(id, CL_DEVICE_NAME);
    std::string extensions = deviceString(id, CL_DEVICE_EXTENSIONS);
    uint32_t clockMHz = deviceInfo<cl_uint>(id, CL_DEVICE_MAX_CLOCK_FREQUENCY);
    if (clockMHz == 0)
        clockMHz = 1000; // some CPU devices do not know their clock; 1 GHz is believable

    ze_device_properties_t &p = info.properties;
    p.type = reportedType(id);
    p.vendorId = deviceInfo<cl_uint>(id, CL_DEVICE_VENDOR_ID);
    p.deviceId = index;
    if (deviceInfo<cl_bool>(id, CL_DEVICE_HOST_UNIFIED_MEMORY, CL_TRUE))
        p.flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED; // shares the host's memory
    p.coreClockRate = clockMHz;
    p.maxMemAllocSize = deviceInfo<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    p.maxHardwareContexts = 1;
    p.numThreadsPerEU = 1;
    p.physicalEUSimdWidth =
        std::max<cl_uint>(1, deviceInfo<cl_uint>(id, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT));
    p.numEUsPerSubslice = 1;
    p.numSubslicesPerSlice =
        std::max<cl_uint>(1, deviceInfo<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS));
    p.numSlices = 1;
    p.timestampValidBits = 64;
    p.kernelTimestampValidBits = 64;
    // Stable across runs and processes: platform name, device name and position.
    std::string key = platformName + "/" + name + "/" + std::to_string(index);
    uint64_t a = fnv1a(key, 0), b = fnv1a(key, 0x4c30);
    std::memcpy(p.uuid.id, &a, 8);
    std::memcpy(p.uuid.id + 8, &b, 8);
    copyName(p.name, name);

    ze_device_compute_properties_t &c = info.compute;
    // No larger than the work-group collectives' scratch array (PoCL: 4096 both).
    c.maxTotalGroupSize = static_cast<uint32_t>(std::clamp<size_t>(
        deviceInfo<size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE), 1, detail::kMaxWorkGroupItems));
    size_t itemSizes[3] = {1, 1, 1};
    clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(itemSizes), itemSizes, nullptr);
    c.maxGroupSizeX = static_cast<uint32_t>(itemSizes[0]);
    c.maxGroupSizeY = static_cast<uint32_t>(itemSizes[1]);
    c.maxGroupSizeZ = static_cast<uint32_t>(itemSizes[2]);
    c.maxGroupCountX = c.maxGroupCountY = c.maxGroupCountZ = UINT32_MAX;
    c.maxSharedLocalMemory = static_cast<uint32_t>(
        std::min<uint64_t>(deviceInfo<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE), UINT32_MAX));
    size_t size = 0;
    if (clGetDeviceInfo(id, kSubGroupSizesIntel, 0, nullptr, &size) == CL_SUCCESS && size > 0) {
        std::vector<size_t> sizes(size / sizeof(size_t));
        clGetDeviceInfo(id, kSubGroupSizesIntel, size, sizes.data(), nullptr);
        for (size_t s : sizes)
            if (s > 0)
                info.subGroupSizes.push_back(static_cast<uint32_t>(s));
    }

    ze_device_module_properties_t &m = info.module;
    m.spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
    if (extensions.find("cl_khr_fp16") != std::string::npos)
        m.flags |= ZE_DEVICE_MODULE_FLAG_FP16;
    if (extensions.find("cl_khr_fp64") != std::string::npos)
        m.flags |= ZE_DEVICE_MODULE_FLAG_FP64;
    if (extensions.find("cl_khr_int64_base_atomics") != std::string::npos)
        m.flags |= ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
    m.fp16flags = fpFlags(deviceInfo<cl_device_fp_config>(id, CL_DEVICE_HALF_FP_CONFIG));
    m.fp32flags = fpFlags(deviceInfo<cl_device_fp_config>(id, CL_DEVICE_SINGLE_FP_CONFIG));
    m.fp64flags = fpFlags(deviceInfo<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG));
    m.maxArgumentsSize = static_cast<uint32_t>(deviceInfo<size_t>(id, CL_DEVICE_MAX_PARAMETER_SIZE));
    m.printfBufferSize = static_cast<uint32_t>(deviceInfo<size_t>(id, CL_DEVICE_PRINTF_BUFFER_SIZE));
    std::memcpy(m.nativeKernelSupported.id, p.uuid.id, sizeof(p.uuid.id));

    info.memory.maxClockRate = clockMHz;
    info.memory.maxBusWidth = 64; // one DDR channel's width: the host's memory
    info.memory.totalSize = deviceInfo<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
    copyName(info.memory.name, "host memory");

    info.cache.cacheSize =
        static_cast<size_t>(deviceInfo<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE));
    info.image = imageProperties(id, p.maxMemAllocSize);

    // One group, one queue: OpenCL has no engines to choose between.
    info.queueGroup.flags =
        ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
    info.queueGroup.maxMemoryFillPatternSize = 128; // the largest clEnqueueSVMMemFill pattern
    info.queueGroup.numQueues = 1;

    auto svm = deviceInfo<cl_device_svm_capabilities>(id, CL_DEVICE_SVM_CAPABILITIES);
    info.reachesSystemMemory = (svm & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) ||
                               (deviceInfo<cl_device_type>(id, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU);
    // Every USM kind is SVM the device reaches directly; the host shares it
    // concurrently only where SVM is fine-grained (coarse-grained SVM, as on a
    // discrete GPU's OpenCL, is the host's only between map and unmap).
    ze_memory_access_cap_flags_t all = ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC;
    if (svm & (CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) ||
        info.reachesSystemMemory)
        all |= ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT | ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
    info.access.hostAllocCapabilities = all;
    info.access.deviceAllocCapabilities = all;
    info.access.sharedSingleDeviceAllocCapabilities = all;
    info.access.sharedCrossDeviceAllocCapabilities = all;
    info.access.sharedSystemAllocCapabilities = info.reachesSystemMemory ? all : 0;
    return info;
}

std::unique_ptr<Device> makeDevice(Driver *driver, cl_device_id id, uint32_t index) {
    auto device = std::make_unique<Device>(driver, deviceProperties(driver->name(), id, index));
    DeviceNative &native = device->native();
    native.id = id;
    if (deviceInfo<cl_device_svm_capabilities>(id, CL_DEVICE_SVM_CAPABILITIES) &
        CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
        native.svmFlags |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
    native.maxSvmAlignment = std::max<size_t>(
        sizeof(cl_long16), deviceInfo<cl_uint>(id, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
    return device;
}

} // namespace

std::vector<std::unique_ptr<Driver>> backend::discover() {
    std::vector<std::unique_ptr<Driver>> drivers;
    cl_uint numPlatforms = 0;
    if (clGetPlatformIDs(0, nullptr, &numPlatforms) != CL_SUCCESS || numPlatforms == 0)
        return drivers;
    std::vector<cl_platform_id> platforms(numPlatforms);
    clGetPlatformIDs(numPlatforms, platforms.data(), nullptr);
    const std::string &filter = options().platformFilter;
    for (cl_platform_id platform : platforms) {
        std::string name = platformInfo(platform, CL_PLATFORM_NAME);
        if (!filter.empty() && name.find(filter) == std::string::npos)
            continue;
        cl_uint numDevices = 0;
        if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &numDevices) != CL_SUCCESS ||
            numDevices == 0)
            continue;
        std::vector<cl_device_id> devices(numDevices);
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, numDevices, devices.data(), nullptr);
        auto driver = std::make_unique<Driver>(name);
        driver->native().platform = platform;
        uint32_t index = 0;
        for (cl_device_id id : devices)
            if (hasSvm(id))
                driver->addDevice(makeDevice(driver.get(), id, index++));
        if (!driver->devices().empty())
            drivers.push_back(std::move(driver));
    }
    return drivers;
}

// The OpenCL device's kernels run where its runtime runs them: on PoCL's CPU
// device, inside this process, where a faulting kernel faults the process as
// it would under PoCL itself. An OpenCL runtime reports a GPU's fault as a
// failed command, which the driver turns into no lost state: the device is
// never lost.
bool backend::deviceLost(Device &) {
    return false;
}

// The devices of one OpenCL platform share its one context (and the SVM
// memory of it): every one reaches every other's memory.
bool backend::peerAccess(Device &, Device &) {
    return true;
}

// No extension functions of this backend's own.
void *backend::extensionFunction(const char *) {
    return nullptr;
}

} // namespace ze_driver
