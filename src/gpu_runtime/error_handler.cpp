#include "gpu_runtime/error_handler.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace imex_l0 {

namespace {

void printAndAbort(const char *message, void *) {
    std::fprintf(stderr, "imex_gpu_runtime: %s\n", message);
    std::fflush(stderr);
    std::abort();
}

std::mutex mutex; // guards handler and userData
imex_gpu_error_handler_t handler = printAndAbort;
void *userData = nullptr;

} // namespace

void setGpuErrorHandler(imex_gpu_error_handler_t h, void *data) noexcept {
    std::lock_guard<std::mutex> lock(mutex);
    handler = h ? h : printAndAbort;
    userData = h ? data : nullptr;
}

void reportGpuError(const char *function, const char *cause) noexcept {
    imex_gpu_error_handler_t h;
    void *data;
    {
        std::lock_guard<std::mutex> lock(mutex);
        h = handler;
        data = userData;
    }
    std::string message;
    try {
        message = std::string(function) + ": " + cause;
    } catch (...) {
        message.clear(); // out of memory: the cause alone still tells
    }
    // The handler runs outside the lock: it may call gpu* functions itself.
    h(message.empty() ? cause : message.c_str(), data);
}

} // namespace imex_l0
