// One verbose switch, IMEX_L0_VERBOSE=none|error|warn|info|trace (default
// error; none is for processes whose stderr must stay quiet).
// Lines are CSV-like: "imex_l0,<level>,<event>,<details...>" on stderr.
#pragma once

#include "imex_l0_interop.h"

#include <chrono>
#include <string>

namespace imex_l0 {

enum class Verbosity { none = -1, error = 0, warn = 1, info = 2, trace = 3 };

Verbosity verbosity();
inline bool verboseAt(Verbosity level) { return verbosity() >= level; }

void logLine(Verbosity level, const std::string &line);
// Failures are always logged at level error, with the reason.
void logFailure(const char *function, imex_l0_status_t status, const std::string &message);

// Host time of a scope in microseconds, for the info lines.
class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    double elapsedUs() const {
        return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_)
            .count();
    }

private:
    std::chrono::steady_clock::time_point start_;
};

} // namespace imex_l0
