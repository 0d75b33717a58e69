// The OpenCL backend's kernels: a cl_kernel of the module's program
// (KernelNative), onto which a launch sets its arguments and is enqueued.
#pragma once

#include "backend_native.hpp"

namespace ze_driver {

class Kernel;

// Sets `launch`'s arguments on the kernel's shared cl_kernel and enqueues
// it, under the kernel's lock (OpenCL captures the arguments at enqueue
// time). Returns the command's event when `wantEvent`, else null.
cl_event enqueueKernel(cl_command_queue queue, Kernel &kernel, const KernelLaunch &launch,
                       const ze_group_count_t &groups, cl_uint numWaits, const cl_event *waits,
                       bool wantEvent);

} // namespace ze_driver
