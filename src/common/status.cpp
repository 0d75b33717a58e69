#include "common/status.hpp"

#include "common/c_enum.hpp"
#include "common/verbose.hpp"

#include <cstdlib>

namespace imex_l0 {

namespace {
// Per thread, as the API promises: a failure on one thread never overwrites
// the message another thread is about to read. Every call clears it, so it
// uses the initial-exec model: an access is one instruction, not a call of
// __tls_get_addr (32 bytes of the static TLS space a library may use).
thread_local std::string lastError __attribute__((tls_model("initial-exec")));
} // namespace

void fail(imex_l0_status_t status, std::string message) { throw Error(status, std::move(message)); }

void failInvalid(std::string message) { fail(imex_l0_invalid_arguments, std::move(message)); }

void failInvalidHandle(bool isNull, const char *what) {
    failInvalid(std::string(what) +
                (isNull ? " is NULL"
                        : " is not a live object of its type (destroyed, or a different handle "
                          "type)"));
}

const char *zeResultName(ze_result_t result) {
    switch (result) {
#define IMEX_L0_RESULT_NAME(r)                                                                     \
    case r:                                                                                        \
        return #r;
        IMEX_L0_RESULT_NAME(ZE_RESULT_SUCCESS)
        IMEX_L0_RESULT_NAME(ZE_RESULT_NOT_READY)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_DEVICE_LOST)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_NOT_AVAILABLE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_UNINITIALIZED)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_ARGUMENT)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_SIZE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_ENUMERATION)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
        IMEX_L0_RESULT_NAME(ZE_RESULT_ERROR_UNKNOWN)
#undef IMEX_L0_RESULT_NAME
    default:
        return "ZE_RESULT_(unknown value)";
    }
}

void checkZe(ze_result_t result, const char *call) {
    if (result == ZE_RESULT_SUCCESS)
        return;
    std::string message = std::string(call) + " failed: " + zeResultName(result);
    if (result == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ||
        result == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
        fail(imex_l0_out_of_memory, std::move(message));
    if (result == ZE_RESULT_ERROR_DEVICE_LOST)
        fail(imex_l0_device_lost,
             std::move(message) + ": a kernel faulted (an illegal address, a trap) and the device "
                                  "runs nothing more in this process");
    fail(imex_l0_runtime_error, std::move(message));
}

void setLastError(const std::string &message) { lastError = message; }

void clearLastError() { lastError.clear(); }

LastErrorKeeper::LastErrorKeeper() : saved_(lastError) {}

LastErrorKeeper::~LastErrorKeeper() { lastError.swap(saved_); }

imex_l0_status_t reportFailure(const char *function, imex_l0_status_t status,
                               const char *message) noexcept {
    try {
        lastError = std::string(function) + ": " + message;
        logFailure(function, status, lastError);
    } catch (...) {
        // Out of memory while recording the message: the status still tells.
    }
    return status;
}

} // namespace imex_l0

extern "C" {

const char *imex_l0_status_str(imex_l0_status_t status) {
    switch (imex_l0::rawValue(status)) { // any int from a C caller
    case imex_l0_success:
        return "imex_l0_success";
    case imex_l0_out_of_memory:
        return "imex_l0_out_of_memory";
    case imex_l0_invalid_arguments:
        return "imex_l0_invalid_arguments";
    case imex_l0_unimplemented:
        return "imex_l0_unimplemented";
    case imex_l0_compile_error:
        return "imex_l0_compile_error";
    case imex_l0_not_found:
        return "imex_l0_not_found";
    case imex_l0_runtime_error:
        return "imex_l0_runtime_error";
    case imex_l0_timeout:
        return "imex_l0_timeout";
    case imex_l0_device_lost:
        return "imex_l0_device_lost";
    }
    return "imex_l0_status_t(unknown value)";
}

const char *imex_l0_last_error_message(void) { return imex_l0::lastError.c_str(); }

void imex_l0_free(void *ptr) { free(ptr); }

} // extern "C"
