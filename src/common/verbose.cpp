#include "common/verbose.hpp"

#include "common/options.hpp"

#include <cstdio>
#include <mutex>

namespace imex_l0 {

Verbosity verbosity() {
    static const Verbosity level = [] {
        const std::string &v = options().verbose;
        if (v == "trace")
            return Verbosity::trace;
        if (v == "info")
            return Verbosity::info;
        if (v == "warn")
            return Verbosity::warn;
        if (v == "none")
            return Verbosity::none;
        return Verbosity::error;
    }();
    return level;
}

void logLine(Verbosity level, const std::string &line) {
    static const char *names[] = {"error", "warn", "info", "trace"};
    // Guards stderr so lines from several threads do not interleave.
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    std::fprintf(stderr, "imex_l0,%s,%s\n", names[static_cast<int>(level)], line.c_str());
}

void logFailure(const char *function, imex_l0_status_t status, const std::string &message) {
    if (!verboseAt(Verbosity::error))
        return;
    logLine(Verbosity::error,
            std::string(function) + "," + imex_l0_status_str(status) + "," + message);
}

} // namespace imex_l0
