// Devices: properties read from OpenCL, and the Device DDI table.
#include "device.hpp"

#include "driver.hpp"
#include "options.hpp"
#include "work_group_collectives.hpp"

#include <CL/cl_ext.h> // CL_DEVICE_HALF_FP_CONFIG (cl_khr_fp16)
#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <ctime>

namespace ze_opencl {

namespace {

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

bool reportAsGpu() {
    std::string v = options().deviceType;
    for (char &c : v)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return v == "GPU";
}

// cl_intel_required_subgroup_size's query; PoCL answers it on CPU devices.
constexpr cl_device_info kSubGroupSizesIntel = 0x4108;

} // namespace

Device::Device(Driver *driver, cl_device_id id, uint32_t index)
    : Object(kTag), driver_(driver), id_(id), index_(index) {
    name_ = deviceString(id, CL_DEVICE_NAME);
    extensions_ = deviceString(id, CL_DEVICE_EXTENSIONS);
    // Stable across runs and processes: platform name, device name and position.
    std::string key = driver->name() + "/" + name_ + "/" + std::to_string(index);
    uint64_t a = fnv1a(key, 0), b = fnv1a(key, 0x4c30);
    std::memcpy(uuid_, &a, 8);
    std::memcpy(uuid_ + 8, &b, 8);
    vendorId_ = deviceInfo<cl_uint>(id, CL_DEVICE_VENDOR_ID);
    clockMHz_ = deviceInfo<cl_uint>(id, CL_DEVICE_MAX_CLOCK_FREQUENCY);
    if (clockMHz_ == 0)
        clockMHz_ = 1000; // some CPU devices do not know their clock; 1 GHz is believable
    computeUnits_ = std::max<cl_uint>(1, deviceInfo<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS));
    simdWidth_ = std::max<cl_uint>(1, deviceInfo<cl_uint>(id, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT));
    maxMemAllocSize_ = deviceInfo<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    globalMemSize_ = deviceInfo<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
    globalCacheSize_ = deviceInfo<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
    localMemSize_ = deviceInfo<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE);
    // No larger than the work-group collectives' scratch array (PoCL: 4096 both).
    maxWorkGroupSize_ = std::clamp<size_t>(deviceInfo<size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE), 1,
                                           detail::kMaxWorkGroupItems);
    clGetDeviceInfo(id, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(maxWorkItemSizes_), maxWorkItemSizes_,
                    nullptr);
    maxParameterSize_ = deviceInfo<size_t>(id, CL_DEVICE_MAX_PARAMETER_SIZE);
    maxSvmAlignment_ = std::max<size_t>(sizeof(cl_long16),
                                        deviceInfo<cl_uint>(id, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
    printfBufferSize_ = deviceInfo<size_t>(id, CL_DEVICE_PRINTF_BUFFER_SIZE);
    fp16_ = deviceInfo<cl_device_fp_config>(id, CL_DEVICE_HALF_FP_CONFIG);
    fp32_ = deviceInfo<cl_device_fp_config>(id, CL_DEVICE_SINGLE_FP_CONFIG);
    fp64_ = deviceInfo<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG);
    auto svm = deviceInfo<cl_device_svm_capabilities>(id, CL_DEVICE_SVM_CAPABILITIES);
    svmFlags_ = CL_MEM_READ_WRITE;
    if (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)
        svmFlags_ |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
    reachesSystemMemory_ = (svm & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) ||
                           (deviceInfo<cl_device_type>(id, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU);

    size_t size = 0;
    if (clGetDeviceInfo(id, kSubGroupSizesIntel, 0, nullptr, &size) == CL_SUCCESS && size > 0) {
        std::vector<size_t> sizes(size / sizeof(size_t));
        clGetDeviceInfo(id, kSubGroupSizesIntel, size, sizes.data(), nullptr);
        for (size_t s : sizes)
            if (s > 0 && subGroupSizes_.size() < ZE_SUBGROUPSIZE_COUNT)
                subGroupSizes_.push_back(static_cast<uint32_t>(s));
    }
    if (subGroupSizes_.empty())
        subGroupSizes_.push_back(1); // a work-item is its own sub-group
}

void Device::getProperties(ze_device_properties_t *p) const {
    p->type = reportAsGpu() ? ZE_DEVICE_TYPE_GPU : ZE_DEVICE_TYPE_CPU;
    p->vendorId = vendorId_;
    p->deviceId = index_;
    p->flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED; // shares the host's memory
    p->subdeviceId = 0;
    p->coreClockRate = clockMHz_;
    p->maxMemAllocSize = maxMemAllocSize_;
    p->maxHardwareContexts = 1;
    p->maxCommandQueuePriority = 0;
    p->numThreadsPerEU = 1;
    p->physicalEUSimdWidth = simdWidth_;
    p->numEUsPerSubslice = 1;
    p->numSubslicesPerSlice = computeUnits_;
    p->numSlices = 1;
    // Timestamps are in nanoseconds. The 1.0 structure states the resolution as
    // nanoseconds per tick, the 1.2 one as ticks per second.
    p->timerResolution = p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 ? 1000000000ull : 1;
    p->timestampValidBits = 64;
    p->kernelTimestampValidBits = 64;
    std::memcpy(p->uuid.id, uuid_, sizeof(uuid_));
    copyName(p->name, name_);
}

void Device::getComputeProperties(ze_device_compute_properties_t *p) const {
    p->maxTotalGroupSize = static_cast<uint32_t>(maxWorkGroupSize_);
    p->maxGroupSizeX = static_cast<uint32_t>(maxWorkItemSizes_[0]);
    p->maxGroupSizeY = static_cast<uint32_t>(maxWorkItemSizes_[1]);
    p->maxGroupSizeZ = static_cast<uint32_t>(maxWorkItemSizes_[2]);
    p->maxGroupCountX = UINT32_MAX;
    p->maxGroupCountY = UINT32_MAX;
    p->maxGroupCountZ = UINT32_MAX;
    p->maxSharedLocalMemory = static_cast<uint32_t>(std::min<uint64_t>(localMemSize_, UINT32_MAX));
    p->numSubGroupSizes = static_cast<uint32_t>(subGroupSizes_.size());
    std::fill(std::begin(p->subGroupSizes), std::end(p->subGroupSizes), 0u);
    std::copy(subGroupSizes_.begin(), subGroupSizes_.end(), p->subGroupSizes);
}

void Device::getModuleProperties(ze_device_module_properties_t *p) const {
    p->spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
    p->flags = 0;
    if (extensions_.find("cl_khr_fp16") != std::string::npos)
        p->flags |= ZE_DEVICE_MODULE_FLAG_FP16;
    if (extensions_.find("cl_khr_fp64") != std::string::npos)
        p->flags |= ZE_DEVICE_MODULE_FLAG_FP64;
    if (extensions_.find("cl_khr_int64_base_atomics") != std::string::npos)
        p->flags |= ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
    p->fp16flags = fpFlags(fp16_);
    p->fp32flags = fpFlags(fp32_);
    p->fp64flags = fpFlags(fp64_);
    p->maxArgumentsSize = static_cast<uint32_t>(maxParameterSize_);
    p->printfBufferSize = static_cast<uint32_t>(printfBufferSize_);
    std::memcpy(p->nativeKernelSupported.id, uuid_, sizeof(uuid_));
}

void Device::getMemoryProperties(ze_device_memory_properties_t *p) const {
    p->flags = 0;
    p->maxClockRate = clockMHz_;
    p->maxBusWidth = 64; // one DDR channel's width: the host's memory
    p->totalSize = globalMemSize_;
    copyName(p->name, "host memory");
}

void Device::getCacheProperties(ze_device_cache_properties_t *p) const {
    p->flags = 0;
    p->cacheSize = static_cast<size_t>(globalCacheSize_);
}

void Device::getImageProperties(ze_device_image_properties_t *p) const {
    p->maxImageDims1D = p->maxImageDims2D = p->maxImageDims3D = 0;
    p->maxImageBufferSize = 0;
    p->maxImageArraySlices = p->maxSamplers = p->maxReadImageArgs = p->maxWriteImageArgs = 0;
    if (!deviceInfo<cl_bool>(id_, CL_DEVICE_IMAGE_SUPPORT))
        return;
    auto u32 = [](size_t v) { return static_cast<uint32_t>(std::min<size_t>(v, UINT32_MAX)); };
    // OpenCL has no 1D limit of its own: a 1D image is as wide as a 2D one.
    size_t width2D = deviceInfo<size_t>(id_, CL_DEVICE_IMAGE2D_MAX_WIDTH);
    p->maxImageDims1D = u32(width2D);
    p->maxImageDims2D =
        u32(std::min(width2D, deviceInfo<size_t>(id_, CL_DEVICE_IMAGE2D_MAX_HEIGHT)));
    p->maxImageDims3D = u32(std::min({deviceInfo<size_t>(id_, CL_DEVICE_IMAGE3D_MAX_WIDTH),
                                      deviceInfo<size_t>(id_, CL_DEVICE_IMAGE3D_MAX_HEIGHT),
                                      deviceInfo<size_t>(id_, CL_DEVICE_IMAGE3D_MAX_DEPTH)}));
    // In bytes for L0, in pixels for OpenCL: counted with 1-byte pixels, the
    // limit holds for every format, and no buffer exceeds the largest
    // allocation.
    p->maxImageBufferSize = std::min<uint64_t>(
        deviceInfo<size_t>(id_, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), maxMemAllocSize_);
    p->maxImageArraySlices = u32(deviceInfo<size_t>(id_, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE));
    p->maxSamplers = deviceInfo<cl_uint>(id_, CL_DEVICE_MAX_SAMPLERS);
    p->maxReadImageArgs = deviceInfo<cl_uint>(id_, CL_DEVICE_MAX_READ_IMAGE_ARGS);
    p->maxWriteImageArgs = deviceInfo<cl_uint>(id_, CL_DEVICE_MAX_WRITE_IMAGE_ARGS);
}

uint64_t deviceTimeNs() {
    // PoCL's CPU device stamps profiling events with CLOCK_MONOTONIC_RAW;
    // host-side times must come from the same clock to be comparable.
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
    return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

namespace {

// The count-then-fill pattern shared by every property array of one element.
template <class T, class F> ze_result_t getOne(uint32_t *pCount, T *out, F &&fill) {
    notNull(pCount);
    if (*pCount == 0 || out == nullptr) {
        *pCount = 1;
        return ZE_RESULT_SUCCESS;
    }
    *pCount = 1;
    fill(out);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeDeviceGet(ze_driver_handle_t hDriver, uint32_t *pCount,
                                   ze_device_handle_t *phDevices) {
    return boundary(__func__, [&] {
        Driver *driver = fromHandle<Driver>(hDriver);
        notNull(pCount);
        const auto &devices = driver->devices();
        uint32_t n = static_cast<uint32_t>(devices.size());
        if (*pCount == 0 || phDevices == nullptr) {
            *pCount = n;
            return ZE_RESULT_SUCCESS;
        }
        *pCount = std::min(*pCount, n);
        for (uint32_t i = 0; i < *pCount; ++i)
            phDevices[i] = toHandle<Device, ze_device_handle_t>(devices[i].get());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetSubDevices(ze_device_handle_t hDevice, uint32_t *pCount,
                                             ze_device_handle_t *) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice);
        *notNull(pCount) = 0;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetProperties(ze_device_handle_t hDevice,
                                             ze_device_properties_t *p) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice)->getProperties(notNull(p));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetComputeProperties(ze_device_handle_t hDevice,
                                                    ze_device_compute_properties_t *p) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice)->getComputeProperties(notNull(p));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetModuleProperties(ze_device_handle_t hDevice,
                                                   ze_device_module_properties_t *p) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice)->getModuleProperties(notNull(p));
        return ZE_RESULT_SUCCESS;
    });
}

// One group, one queue: OpenCL has no engines to choose between.
ze_result_t ZE_APICALL zeDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t hDevice, uint32_t *pCount, ze_command_queue_group_properties_t *p) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice);
        return getOne(pCount, p, [](ze_command_queue_group_properties_t *g) {
            g->flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                       ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
            g->maxMemoryFillPatternSize = 128; // the largest clEnqueueSVMMemFill pattern
            g->numQueues = 1;
        });
    });
}

ze_result_t ZE_APICALL zeDeviceGetMemoryProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                                                   ze_device_memory_properties_t *p) {
    return boundary(__func__, [&] {
        Device *device = fromHandle<Device>(hDevice);
        return getOne(pCount, p,
                      [&](ze_device_memory_properties_t *m) { device->getMemoryProperties(m); });
    });
}

ze_result_t ZE_APICALL zeDeviceGetMemoryAccessProperties(ze_device_handle_t hDevice,
                                                         ze_device_memory_access_properties_t *p) {
    return boundary(__func__, [&] {
        Device *device = fromHandle<Device>(hDevice);
        notNull(p);
        // Every USM kind is host memory the device reaches directly.
        ze_memory_access_cap_flags_t all =
            ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
            ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT | ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
        p->hostAllocCapabilities = all;
        p->deviceAllocCapabilities = all;
        p->sharedSingleDeviceAllocCapabilities = all;
        p->sharedCrossDeviceAllocCapabilities = all;
        p->sharedSystemAllocCapabilities = device->reachesSystemMemory() ? all : 0;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetCacheProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                                                  ze_device_cache_properties_t *p) {
    return boundary(__func__, [&] {
        Device *device = fromHandle<Device>(hDevice);
        return getOne(pCount, p,
                      [&](ze_device_cache_properties_t *c) { device->getCacheProperties(c); });
    });
}

ze_result_t ZE_APICALL zeDeviceGetImageProperties(ze_device_handle_t hDevice,
                                                  ze_device_image_properties_t *p) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice)->getImageProperties(notNull(p));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetExternalMemoryProperties(
    ze_device_handle_t hDevice, ze_device_external_memory_properties_t *p) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice);
        notNull(p);
        p->memoryAllocationImportTypes = p->memoryAllocationExportTypes = 0;
        p->imageImportTypes = p->imageExportTypes = 0;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetP2PProperties(ze_device_handle_t hDevice,
                                                ze_device_handle_t hPeer,
                                                ze_device_p2p_properties_t *p) {
    return boundary(__func__, [&] {
        Device *a = fromHandle<Device>(hDevice);
        Device *b = fromHandle<Device>(hPeer);
        notNull(p)->flags = a->driver() == b->driver() ? ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS : 0;
        return ZE_RESULT_SUCCESS;
    });
}

// Devices of one platform share a context, hence each other's SVM memory.
ze_result_t ZE_APICALL zeDeviceCanAccessPeer(ze_device_handle_t hDevice, ze_device_handle_t hPeer,
                                             ze_bool_t *value) {
    return boundary(__func__, [&] {
        Device *a = fromHandle<Device>(hDevice);
        Device *b = fromHandle<Device>(hPeer);
        *notNull(value) = a->driver() == b->driver();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetStatus(ze_device_handle_t hDevice) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetGlobalTimestamps(ze_device_handle_t hDevice,
                                                   uint64_t *hostTimestamp,
                                                   uint64_t *deviceTimestamp) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice);
        notNull(hostTimestamp);
        notNull(deviceTimestamp);
        *hostTimestamp = *deviceTimestamp = deviceTimeNs();
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(ze_api_version_t version,
                                                                        ze_device_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnGet = zeDeviceGet;
    t->pfnGetSubDevices = zeDeviceGetSubDevices;
    t->pfnGetProperties = zeDeviceGetProperties;
    t->pfnGetComputeProperties = zeDeviceGetComputeProperties;
    t->pfnGetModuleProperties = zeDeviceGetModuleProperties;
    t->pfnGetCommandQueueGroupProperties = zeDeviceGetCommandQueueGroupProperties;
    t->pfnGetMemoryProperties = zeDeviceGetMemoryProperties;
    t->pfnGetMemoryAccessProperties = zeDeviceGetMemoryAccessProperties;
    t->pfnGetCacheProperties = zeDeviceGetCacheProperties;
    t->pfnGetImageProperties = zeDeviceGetImageProperties;
    t->pfnGetExternalMemoryProperties = zeDeviceGetExternalMemoryProperties;
    t->pfnGetP2PProperties = zeDeviceGetP2PProperties;
    t->pfnCanAccessPeer = zeDeviceCanAccessPeer;
    t->pfnGetStatus = zeDeviceGetStatus;
    t->pfnGetGlobalTimestamps = zeDeviceGetGlobalTimestamps;
    setUnsupported(t->pfnReserveCacheExt);
    setUnsupported(t->pfnSetCacheAdviceExt);
    setUnsupported(t->pfnPciGetPropertiesExt);
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_opencl
