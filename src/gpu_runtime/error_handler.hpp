// Where gpu* failures go: lowered code cannot check a status, so each
// wrapper reports to a process-wide handler (default: print and abort).
#pragma once

#include "imex_gpu_abi.h"

namespace imex_l0 {

void setGpuErrorHandler(imex_gpu_error_handler_t handler, void *userData) noexcept;
// "gpuLaunchKernel: <cause>" to the handler; returns if the handler does.
void reportGpuError(const char *function, const char *cause) noexcept;

// Runs body; turns any exception into a report and returns `failed`.
template <typename R, typename Body> R gpuGuard(const char *function, R failed, Body &&body) noexcept;

} // namespace imex_l0

#include "common/status.hpp"

#include <exception>
#include <new>

template <typename R, typename Body>
R imex_l0::gpuGuard(const char *function, R failed, Body &&body) noexcept {
    try {
        return body();
    } catch (const std::bad_alloc &) {
        reportGpuError(function, "out of host memory");
    } catch (const std::exception &e) {
        reportGpuError(function, e.what());
    } catch (...) {
        reportGpuError(function, "unknown exception");
    }
    return failed;
}
