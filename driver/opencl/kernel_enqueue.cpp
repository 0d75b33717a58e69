// The OpenCL backend's kernels (../core/backend.hpp): each is a cl_kernel of
// its module's program; its properties are OpenCL's, and a launch sets the
// arguments that changed on it and enqueues it.
#include "kernel_enqueue.hpp"

#include "backend.hpp"
#include "device.hpp"
#include "image.hpp"
#include "kernel.hpp"
#include "module.hpp"

#include <cstring>
#include <mutex>

namespace ze_driver {

KernelNative::~KernelNative() {
    if (cl != nullptr)
        clReleaseKernel(cl);
}

size_t backend::initKernel(Kernel &kernel) {
    Module *module = kernel.module();
    cl_int err = CL_SUCCESS;
    kernel.native().cl = clCreateKernel(module->native().program, kernel.info().name.c_str(), &err);
    checkCl(err);
    size_t wg = 0;
    if (clGetKernelWorkGroupInfo(kernel.native().cl, module->device()->native().id,
                                 CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, nullptr) == CL_SUCCESS &&
        wg > 0)
        return wg;
    return module->device()->maxGroupSize();
}

void backend::kernelMemory(const Kernel &kernel, uint32_t *local, uint32_t *priv) {
    cl_device_id device = kernel.module()->device()->native().id;
    cl_ulong l = 0, p = 0;
    clGetKernelWorkGroupInfo(kernel.native().cl, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(l), &l,
                             nullptr);
    clGetKernelWorkGroupInfo(kernel.native().cl, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(p), &p,
                             nullptr);
    *local = static_cast<uint32_t>(l);
    *priv = static_cast<uint32_t>(p);
}

// OpenCL gets the cl_mem or cl_sampler behind the handle, set like a value.
std::vector<uint8_t> backend::objectArgument(ArgKind kind, void *handle) {
    void *object;
    if (kind == ArgKind::Image)
        object = fromHandle<Image>(static_cast<ze_image_handle_t>(handle))->native().cl;
    else
        object = fromHandle<Sampler>(static_cast<ze_sampler_handle_t>(handle))->native().cl;
    const auto *bytes = reinterpret_cast<const uint8_t *>(&object);
    return std::vector<uint8_t>(bytes, bytes + sizeof(object));
}

cl_event enqueueKernel(cl_command_queue queue, Kernel &kernel, const KernelLaunch &launch,
                       const ze_group_count_t &groups, cl_uint numWaits, const cl_event *waits,
                       bool wantEvent) {
    size_t local[3], global[3], offset[3];
    const uint32_t counts[3] = {groups.groupCountX, groups.groupCountY, groups.groupCountZ};
    for (int i = 0; i < 3; ++i) {
        local[i] = launch.groupSize[i];
        global[i] = size_t(counts[i]) * launch.groupSize[i];
        offset[i] = launch.offset[i];
    }
    KernelNative &native = kernel.native();
    const KernelInfo &info = kernel.info();
    std::lock_guard<std::mutex> lock(native.mutex);
    native.applied.resize(launch.args.size());
    for (size_t i = 0; i < launch.args.size(); ++i) {
        const ArgValue &a = launch.args[i];
        if (native.applied[i] == a)
            continue;
        // Forgotten first: if setting fails, the next launch must set it again.
        native.applied[i] = ArgValue();
        cl_uint index = static_cast<cl_uint>(i);
        switch (info.args[i].kind) {
        case ArgKind::GlobalPointer:
        case ArgKind::ConstantPointer: {
            void *p;
            std::memcpy(&p, a.bytes.data(), sizeof(p));
            checkCl(clSetKernelArgSVMPointer(native.cl, index, p));
            break;
        }
        case ArgKind::LocalPointer:
            checkCl(clSetKernelArg(native.cl, index, a.localSize, nullptr));
            break;
        case ArgKind::Value:
        case ArgKind::Image:
        case ArgKind::Sampler:
            checkCl(clSetKernelArg(native.cl, index, a.bytes.size(), a.bytes.data()));
            break;
        }
        native.applied[i] = a;
    }
    // The fewest dimensions that describe the launch: identical for the
    // kernel (a missing dimension has size 1 and offset 0), cheaper for OpenCL.
    cl_uint dims = 3;
    while (dims > 1 && global[dims - 1] == 1 && local[dims - 1] == 1 && offset[dims - 1] == 0)
        --dims;
    cl_event event = nullptr;
    cl_int err = clEnqueueNDRangeKernel(queue, native.cl, dims, offset, global, local, numWaits,
                                        numWaits ? waits : nullptr, wantEvent ? &event : nullptr);
    if (err == CL_INVALID_WORK_GROUP_SIZE || err == CL_INVALID_WORK_ITEM_SIZE)
        fail(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    checkCl(err);
    return event;
}

} // namespace ze_driver
