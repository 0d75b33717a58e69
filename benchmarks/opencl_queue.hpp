// An OpenCL platform's device, found by name, and a context and in-order
// queue on it: what the benchmarks that compare with OpenCL directly set up
// once per process. For programs that include <CL/cl.h> (before this header).
#pragma once

#include "bench_common.hpp"

#include <cstring>
#include <vector>

namespace bench {

// The first device of the first platform whose name contains `platformName`
// that has one of `type`; nullptr if there is none (or no OpenCL at all).
inline cl_device_id openclDevice(const char *platformName,
                                 cl_device_type type = CL_DEVICE_TYPE_ALL) {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0)
        return nullptr;
    std::vector<cl_platform_id> platforms(count);
    BENCH_CL(clGetPlatformIDs(count, platforms.data(), nullptr));
    for (cl_platform_id p : platforms) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name) - 1, name, nullptr);
        cl_device_id device = nullptr;
        if (std::strstr(name, platformName) &&
            clGetDeviceIDs(p, type, 1, &device, nullptr) == CL_SUCCESS)
            return device;
    }
    return nullptr;
}

struct OpenClQueue {
    OpenClQueue(cl_device_id d, cl_command_queue_properties properties) : device(d) {
        cl_int e = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
        BENCH_CL(e);
        const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
        queue = clCreateCommandQueueWithProperties(context, device, properties ? list : nullptr, &e);
        BENCH_CL(e);
    }
    ~OpenClQueue() {
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
    OpenClQueue(const OpenClQueue &) = delete;
    OpenClQueue &operator=(const OpenClQueue &) = delete;

    cl_device_id device;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
};

} // namespace bench
