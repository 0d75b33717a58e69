// Status handling inside the library: an exception type that carries a public
// status and a message, the thread-local last-error message, and the one
// function every C entry point ends with to turn exceptions into statuses.
#pragma once

#include "common/verbose.hpp"
#include "imex_l0_interop.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace imex_l0 {

// Thrown inside the library; never crosses the C boundary (see guard()).
class Error : public std::runtime_error {
public:
    Error(imex_l0_status_t status, std::string message)
        : std::runtime_error(std::move(message)), status_(status) {}
    imex_l0_status_t status() const { return status_; }

private:
    imex_l0_status_t status_;
};

[[noreturn]] void fail(imex_l0_status_t status, std::string message);
[[noreturn]] void failInvalid(std::string message);
// The message of a refused public handle (validate(), object.hpp): out of
// line, so that the launch paths inline only the check.
[[noreturn]] void failInvalidHandle(bool isNull, const char *what);

// Throws Error(runtime_error, out_of_memory or device_lost) naming the L0
// call when result is not ZE_RESULT_SUCCESS.
void checkZe(ze_result_t result, const char *call);
#define IMEX_L0_ZE(call) ::imex_l0::checkZe((call), #call)

// "ZE_RESULT_ERROR_INVALID_ARGUMENT" for the value; a number when unknown.
const char *zeResultName(ze_result_t result);

void setLastError(const std::string &message);
void clearLastError();
// Restores the calling thread's last-error message when it goes out of scope
// (around library calls made on the caller's behalf, like a log callback's).
class LastErrorKeeper {
public:
    LastErrorKeeper();
    ~LastErrorKeeper();
    LastErrorKeeper(const LastErrorKeeper &) = delete;
    LastErrorKeeper &operator=(const LastErrorKeeper &) = delete;

private:
    std::string saved_;
};

// Runs body (returning imex_l0_status_t) and converts any exception into a
// status and the thread's last-error message; logs failures. Every C entry
// point is `return guard("name", [&] { ...; return imex_l0_success; });`.
template <typename Body>
imex_l0_status_t guard(const char *function, Body &&body) noexcept;

imex_l0_status_t reportFailure(const char *function, imex_l0_status_t status,
                               const char *message) noexcept;

template <typename Body>
imex_l0_status_t guard(const char *function, Body &&body) noexcept {
    try {
        clearLastError();
        if (verboseAt(Verbosity::trace))
            logLine(Verbosity::trace, std::string("call,") + function);
        return body();
    } catch (const Error &e) {
        return reportFailure(function, e.status(), e.what());
    } catch (const std::bad_alloc &) {
        return reportFailure(function, imex_l0_out_of_memory, "out of host memory");
    } catch (const std::exception &e) {
        return reportFailure(function, imex_l0_runtime_error, e.what());
    } catch (...) {
        return reportFailure(function, imex_l0_runtime_error, "unknown exception");
    }
}

} // namespace imex_l0
