#include "common/verbose.hpp"

#include "common/options.hpp"
#include "common/status.hpp"

#include <atomic>
#include <cstdio>
#include <mutex>

namespace imex_l0 {

namespace {

Verbosity fromEnvironment() {
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
}

// Guards the sink and serialises lines from several threads. Recursive, as
// the callback runs under it and may call the library (even to set another
// callback).
std::recursive_mutex sinkMutex;
imex_l0_log_callback_t sinkCallback = nullptr;
void *sinkUserData = nullptr;
// Set while this thread runs the callback: the lines of library calls the
// callback makes are not delivered, or a logger that asks the library
// anything would be called again without end.
thread_local bool inCallback = false;

} // namespace

std::atomic<int> detail::level{detail::kUnread};

Verbosity detail::readLevel() {
    // Racing first reads store the same value.
    Verbosity v = fromEnvironment();
    int expected = kUnread;
    level.compare_exchange_strong(expected, static_cast<int>(v), std::memory_order_relaxed);
    return static_cast<Verbosity>(level.load(std::memory_order_relaxed));
}

void setVerbosity(Verbosity v) {
    detail::level.store(static_cast<int>(v), std::memory_order_relaxed);
}

void setLogCallback(imex_l0_log_callback_t callback, void *userData) {
    std::lock_guard<std::recursive_mutex> lock(sinkMutex);
    sinkCallback = callback;
    sinkUserData = userData;
}

void logLine(Verbosity level, const std::string &line) {
    static const char *names[] = {"error", "warn", "info", "trace"};
    std::string text = std::string("imex_l0,") + names[static_cast<int>(level)] + "," + line;
    std::lock_guard<std::recursive_mutex> lock(sinkMutex);
    if (!sinkCallback) {
        std::fprintf(stderr, "%s\n", text.c_str());
        return;
    }
    if (inCallback)
        return;
    struct Running {
        Running() { inCallback = true; }
        ~Running() { inCallback = false; }
    } running;
    // The callback's own library calls leave the message of the call being
    // logged (a failure's) to its caller.
    LastErrorKeeper keep;
    sinkCallback(static_cast<imex_l0_log_level_t>(level), text.c_str(), sinkUserData);
}

std::string csvField(const std::string &text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

void logFailure(const char *function, imex_l0_status_t status, const std::string &message) {
    if (!verboseAt(Verbosity::info))
        return;
    logLine(Verbosity::error, std::string(function) + "," + imex_l0_status_str(status) + "," +
                                  csvField(message));
}

} // namespace imex_l0
