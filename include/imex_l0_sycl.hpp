// SYCL interop (C++, header-only): the library's engines, streams, kernels
// and events over a framework's SYCL objects, for SYCL runtimes with a Level
// Zero backend (Intel's: sycl::backend::ext_oneapi_level_zero). Everything
// goes through the Level Zero handles under the SYCL objects
// (sycl::get_native), so what it returns are the library's ordinary objects
// (imex_l0_interop.hpp) and nothing is implemented twice. The library itself
// never links SYCL; a program that includes this header does.
//
// Ownership: the SYCL objects stay the framework's. An engine or stream made
// here wraps their Level Zero handles without owning them, so the SYCL
// context and queue must outlive it. USM from sycl::malloc_* of the same
// context is Level Zero USM: pass it as imex_l0_arg_usm.
//
// Failures throw imex_l0::error (SYCL itself needs exceptions), with the
// status imex_l0_invalid_arguments and a message that says what to change.
#ifndef IMEX_L0_SYCL_HPP
#define IMEX_L0_SYCL_HPP

#include "imex_l0_interop.hpp"

#include <sycl/ext/oneapi/backend/level_zero.hpp>
#include <sycl/sycl.hpp>

#include <string>
#include <variant>
#include <vector>

#ifdef IMEX_L0_NO_EXCEPTIONS
#error "imex_l0_sycl.hpp needs exceptions (as SYCL does)"
#endif

namespace imex_l0 {
namespace sycl_interop {

namespace detail {
constexpr sycl::backend level_zero = sycl::backend::ext_oneapi_level_zero;

[[noreturn]] inline void refuse(const std::string &message) {
    throw error(imex_l0_invalid_arguments, "imex_l0::sycl_interop: " + message);
}

inline void require_level_zero(sycl::backend backend, const char *what) {
    if (backend != level_zero)
        refuse(std::string(what) +
               " is not on SYCL's Level Zero backend; select a Level Zero device "
               "(ONEAPI_DEVICE_SELECTOR=level_zero:*)");
}
} // namespace detail

// An engine over the Level Zero driver, device and context under a SYCL
// device and context (never owned: the context must outlive the engine).
inline engine make_engine(const sycl::device &device, const sycl::context &context) {
    detail::require_level_zero(device.get_backend(), "the device");
    detail::require_level_zero(context.get_backend(), "the context");
    return engine(sycl::get_native<detail::level_zero>(device.get_platform()),
                  sycl::get_native<detail::level_zero>(device),
                  sycl::get_native<detail::level_zero>(context));
}

// The engine of a queue's device and context.
inline engine make_engine(const sycl::queue &queue) {
    return make_engine(queue.get_device(), queue.get_context());
}

// A stream that appends to the Level Zero immediate command list under an
// in-order queue: the library's launches and copies run in the queue's
// order, between the SYCL commands submitted before and after them, with
// no event between. The queue must outlive the stream.
//
// Two kinds of queue are refused, with what to do instead. An out-of-order
// queue orders its commands by events only: use a stream of the library's
// own (imex_l0::stream(engine)) with native_event() dependencies and
// make_event() for SYCL's. A queue that submits through regular command
// lists (Level Zero command queues: the Level Zero adapter's choice on some
// devices) has no list to append to; the adapter uses immediate lists with
// UR_L0_USE_IMMEDIATE_COMMANDLISTS=1 in the environment at start, or the
// framework makes the queue over an immediate list of its own
// (sycl::make_queue).
//
// A SYCL wait on the queue (queue::wait) waits for SYCL's commands only;
// wait for the library's last work with stream::wait() or an event of it.
inline stream make_stream(const engine &e, const sycl::queue &queue) {
    detail::require_level_zero(queue.get_backend(), "the queue");
    if (!queue.is_in_order())
        detail::refuse("the queue is out of order, so nothing orders an appended command "
                       "after its work; use imex_l0::stream(engine) with native_event() "
                       "dependencies, or an in-order queue");
    if (sycl::get_native<detail::level_zero>(queue.get_context()) != e.context())
        detail::refuse("the queue's context is not the engine's; make the engine from the "
                       "queue (make_engine(queue))");
    auto native = sycl::get_native<detail::level_zero>(queue);
    auto *list = std::get_if<ze_command_list_handle_t>(&native);
    if (!list)
        detail::refuse("the queue submits through regular command lists (a Level Zero "
                       "command queue), which the library cannot append to; set "
                       "UR_L0_USE_IMMEDIATE_COMMANDLISTS=1 before the SYCL runtime starts, "
                       "or make the queue over an immediate list (sycl::make_queue)");
    return stream(e, *list);
}

// The Level Zero event under a SYCL event, to pass as a dependency of the
// library's work. It stays SYCL's: keep the sycl::event until that work
// has been submitted.
inline ze_event_handle_t native_event(const sycl::event &event) {
    detail::require_level_zero(event.get_backend(), "the event");
    return sycl::get_native<detail::level_zero>(event);
}

// A SYCL event over an event the library handed out, for SYCL commands that
// depend on the library's work (handler::depends_on, queue::submit). SYCL
// never resets or destroys it: keep `e` until SYCL no longer uses the
// returned event (its dependent commands have completed).
inline sycl::event make_event(const sycl::context &context, const event &e) {
    detail::require_level_zero(context.get_backend(), "the context");
    return sycl::make_event<detail::level_zero>(
        {e.get(), sycl::ext::oneapi::level_zero::ownership::keep}, context);
}

// A SYCL kernel of SPIR-V (imex_l0::compile_opencl_c makes it from OpenCL C)
// with its kernel bundle, for a framework that submits kernels itself
// (handler::set_args, handler::parallel_for). The Level Zero module and
// kernel are created here and handed to SYCL, which destroys them with the
// last copies of the bundle and kernel; the library's kernels
// (kernel::from_spirv) keep handles of their own, so neither side sees the
// other's argument state. Keep the bundle until the last copy of the kernel
// is gone (as this object does: the kernel goes first): Intel's runtime
// (2026.2) never releases the program of a bundle made from a Level Zero
// module when the bundle goes before a kernel made from it.
struct spirv_kernel {
    sycl::kernel_bundle<sycl::bundle_state::executable> bundle;
    sycl::kernel kernel;
};

inline spirv_kernel make_kernel(const sycl::context &context, const sycl::device &device,
                                const std::vector<char> &spirv, const std::string &name,
                                const std::string &build_options = "") {
    detail::require_level_zero(context.get_backend(), "the context");
    detail::require_level_zero(device.get_backend(), "the device");
    ze_context_handle_t zeContext = sycl::get_native<detail::level_zero>(context);
    ze_device_handle_t zeDevice = sycl::get_native<detail::level_zero>(device);
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = spirv.size();
    desc.pInputModule = reinterpret_cast<const uint8_t *>(spirv.data());
    desc.pBuildFlags = build_options.c_str();
    ze_module_handle_t module = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    ze_result_t built = zeModuleCreate(zeContext, zeDevice, &desc, &module, &log);
    std::string text;
    size_t size = 0;
    if (log && zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS && size) {
        text.resize(size);
        zeModuleBuildLogGetString(log, &size, &text[0]);
        text.resize(size - 1);
    }
    if (log)
        zeModuleBuildLogDestroy(log);
    if (built != ZE_RESULT_SUCCESS)
        detail::refuse("the SPIR-V does not build on the device (zeModuleCreate: " +
                       std::to_string(built) + "): " + text);
    ze_kernel_desc_t kernelDesc = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
    kernelDesc.pKernelName = name.c_str();
    ze_kernel_handle_t kernel = nullptr;
    ze_result_t created = zeKernelCreate(module, &kernelDesc, &kernel);
    if (created != ZE_RESULT_SUCCESS) {
        zeModuleDestroy(module);
        detail::refuse("the module has no kernel '" + name +
                       "' (zeKernelCreate: " + std::to_string(created) + ")");
    }
    namespace lz = sycl::ext::oneapi::level_zero;
    // Each handle is SYCL's once the object taking it exists.
    bool moduleTaken = false;
    try {
        auto bundle = sycl::make_kernel_bundle<detail::level_zero, sycl::bundle_state::executable>(
            {module, lz::ownership::transfer}, context);
        moduleTaken = true;
        sycl::kernel made = sycl::make_kernel<detail::level_zero>(
            {bundle, kernel, lz::ownership::transfer}, context);
        return {std::move(bundle), std::move(made)};
    } catch (...) {
        zeKernelDestroy(kernel);
        if (!moduleTaken)
            zeModuleDestroy(module);
        throw;
    }
}

} // namespace sycl_interop
} // namespace imex_l0

#endif // IMEX_L0_SYCL_HPP
