// One verbose switch: IMEX_L0_VERBOSE=none|error|warn|info|trace (default
// error), or imex_l0_set_log_level. Lines are CSV (RFC 4180),
// "imex_l0,<level>,<event>,<details...>" (the columns are documented in
// imex_l0_interop.h), on stderr or to imex_l0_set_log_callback's callback.
#pragma once

#include "imex_l0_interop.h"

#include <atomic>
#include <chrono>
#include <string>

namespace imex_l0 {

enum class Verbosity { none = -1, error = 0, warn = 1, info = 2, trace = 3 };

namespace detail {
// The level, read on every API call: from IMEX_L0_VERBOSE at the first read
// (kUnread until then) or imex_l0_set_log_level. A plain atomic, so that a
// call pays one load, not a function-local static's guard.
constexpr int kUnread = -2;
extern std::atomic<int> level;
Verbosity readLevel();
} // namespace detail

inline Verbosity verbosity() {
    int v = detail::level.load(std::memory_order_relaxed);
    return v == detail::kUnread ? detail::readLevel() : static_cast<Verbosity>(v);
}
void setVerbosity(Verbosity level);
void setLogCallback(imex_l0_log_callback_t callback, void *userData);
inline bool verboseAt(Verbosity level) { return verbosity() >= level; }

void logLine(Verbosity level, const std::string &line);
// A free-text field of a line (a message, a device or kernel name): quoted,
// with its quotes doubled, when it holds a comma, a quote or a line break.
std::string csvField(const std::string &text);
// A failure the caller receives as a status: logged (tagged error, with the
// reason) from level info up, so the default level keeps stderr quiet.
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
