// An L0 device: one OpenCL device with SVM. Its properties are read from
// OpenCL once, when the driver is initialised.
#pragma once

#include "object.hpp"

#include <string>
#include <vector>

namespace ze_opencl {

class Driver;

class Device : public Object {
public:
    static constexpr Tag kTag = Tag::Device;

    Device(Driver *driver, cl_device_id id, uint32_t index);

    Driver *driver() const { return driver_; }
    cl_device_id id() const { return id_; }
    // Flags for clSVMAlloc: fine-grain buffer SVM when the device has it, so the
    // host may touch USM without map/unmap.
    cl_svm_mem_flags svmFlags() const { return svmFlags_; }
    // Whether kernels and copies reach any host memory (plain malloc), not
    // only SVM allocations: OpenCL's fine-grain system SVM, or a CPU device,
    // whose kernels run in the host process on its own address space.
    bool reachesSystemMemory() const { return reachesSystemMemory_; }
    uint64_t maxMemAllocSize() const { return maxMemAllocSize_; }
    // Local memory per work-group (CL_DEVICE_LOCAL_MEM_SIZE).
    uint64_t localMemSize() const { return localMemSize_; }
    // The largest alignment clSVMAlloc accepts (CL_DEVICE_MEM_BASE_ADDR_ALIGN).
    size_t maxSvmAlignment() const { return maxSvmAlignment_; }
    size_t maxGroupSize() const { return maxWorkGroupSize_; }
    const size_t *maxGroupSizes() const { return maxWorkItemSizes_; }
    const std::vector<uint32_t> &subGroupSizes() const { return subGroupSizes_; }
    const std::string &name() const { return name_; }

    void getProperties(ze_device_properties_t *p) const;
    void getComputeProperties(ze_device_compute_properties_t *p) const;
    void getModuleProperties(ze_device_module_properties_t *p) const;
    void getMemoryProperties(ze_device_memory_properties_t *p) const;
    void getCacheProperties(ze_device_cache_properties_t *p) const;
    // OpenCL's image limits; all zero on a device without images.
    void getImageProperties(ze_device_image_properties_t *p) const;

private:
    Driver *driver_;
    cl_device_id id_;
    uint32_t index_;
    std::string name_;
    std::string extensions_;
    uint8_t uuid_[ZE_MAX_DEVICE_UUID_SIZE] = {};
    uint32_t vendorId_ = 0;
    uint32_t clockMHz_ = 0;
    uint32_t computeUnits_ = 1;
    uint32_t simdWidth_ = 1;
    uint64_t maxMemAllocSize_ = 0;
    uint64_t globalMemSize_ = 0;
    uint64_t globalCacheSize_ = 0;
    uint64_t localMemSize_ = 0;
    size_t maxWorkGroupSize_ = 1;
    size_t maxWorkItemSizes_[3] = {1, 1, 1};
    size_t maxParameterSize_ = 0;
    size_t maxSvmAlignment_ = 128;
    size_t printfBufferSize_ = 0;
    cl_device_fp_config fp16_ = 0, fp32_ = 0, fp64_ = 0;
    cl_svm_mem_flags svmFlags_ = 0;
    bool reachesSystemMemory_ = false;
    std::vector<uint32_t> subGroupSizes_;
};

// The device's clock in nanoseconds, the unit of every timestamp the driver
// reports (kernel timestamps come from OpenCL profiling, which uses it too).
uint64_t deviceTimeNs();

} // namespace ze_opencl
