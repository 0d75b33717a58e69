// What a framework engineer embedding the library relies on beyond the
// objects themselves: the version query, logging from code (level and
// callback), the C++ wrapper's ownership order, first failure and RAII
// events, and the same checks on the gpu* path as on the C API.
#include "imex_gpu_runtime.h"
#include "imex_l0_interop.hpp"
#include "interop_fixtures.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <mutex>
#include <thread>
#include <regex>
#include <string>
#include <vector>

using namespace interop_test;

namespace {

TEST(Version, MatchesTheHeader) {
    imex_l0_version_t v{};
    ASSERT_IMEX(imex_l0_get_version(&v));
    EXPECT_EQ(v.major, uint32_t(IMEX_L0_VERSION_MAJOR));
    EXPECT_EQ(v.minor, uint32_t(IMEX_L0_VERSION_MINOR));
    EXPECT_EQ(v.patch, uint32_t(IMEX_L0_VERSION_PATCH));
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments, imex_l0_get_version(nullptr));
}

// Lines the callback received.
struct LogSink {
    std::mutex mutex;
    std::vector<std::pair<imex_l0_log_level_t, std::string>> lines;
    static void receive(imex_l0_log_level_t level, const char *line, void *self) {
        auto *sink = static_cast<LogSink *>(self);
        std::lock_guard<std::mutex> lock(sink->mutex);
        sink->lines.emplace_back(level, line);
    }
    std::string all() {
        std::lock_guard<std::mutex> lock(mutex);
        std::string text;
        for (auto &l : lines)
            text += l.second + "\n";
        return text;
    }
};

// Restores stderr and the default level; declared after the sinks it
// unregisters, so it runs while they still exist.
struct RestoreLogging {
    ~RestoreLogging() {
        imex_l0_set_log_callback(nullptr, nullptr);
        imex_l0_set_log_level(imex_l0_log_warn);
    }
};

using Logging = WithKernels;

TEST_F(Logging, DefaultLevelKeepsFailuresOffStderr) {
    RestoreLogging restore;
    ASSERT_IMEX(imex_l0_set_log_level(imex_l0_log_warn));
    ::testing::internal::CaptureStderr();
    imex_l0_status_t status = imex_l0_kernel_destroy(nullptr);
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(status, imex_l0_invalid_arguments);
    EXPECT_EQ(err, "") << "a failure returned as a status was also printed";
    EXPECT_NE(lastError().find("kernel"), std::string::npos);
}

TEST_F(Logging, CallbackReceivesTheLinesAndStderrStaysSilent) {
    LogSink sink;
    RestoreLogging restore;
    ASSERT_IMEX(imex_l0_set_log_callback(LogSink::receive, &sink));
    ASSERT_IMEX(imex_l0_set_log_level(imex_l0_log_info));
    ::testing::internal::CaptureStderr();
    Kernel k = fromSource("fill_index");
    UsmBuffer out = allocShared(64 * sizeof(uint32_t));
    imex_l0_exec_arg_t args[] = {usmArg(out.get())};
    imex_l0_range_t range = range1d(64); // the library chooses the local size
    EXPECT_IMEX(imex_l0_interop_kernel_execute(k.get(), stream.get(), 1, args, &range, 0,
                                               nullptr, nullptr));
    EXPECT_IMEX(imex_l0_stream_wait(stream.get()));
    imex_l0_status_t failed = imex_l0_kernel_destroy(nullptr);
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(failed, imex_l0_invalid_arguments);
    EXPECT_EQ(err, "");
    std::string log = sink.all();
    EXPECT_TRUE(std::regex_search(log, std::regex(R"(imex_l0,info,kernel_create,[^\n]*fill_index)")))
        << log;
    // The launch line has the requested and the chosen local size.
    EXPECT_TRUE(std::regex_search(
        log, std::regex(R"(imex_l0,info,kernel_execute,fill_index,global=64x1x1,local=0x0x0,local_used=[1-9][0-9]*x1x1)")))
        << log;
    EXPECT_TRUE(std::regex_search(
        log, std::regex(R"(imex_l0,error,imex_l0_kernel_destroy,imex_l0_invalid_arguments)")))
        << log;
    bool sawInfoLevel = false;
    for (auto &l : sink.lines)
        sawInfoLevel = sawInfoLevel || l.first == imex_l0_log_info;
    EXPECT_TRUE(sawInfoLevel);
}

TEST_F(Logging, TracePrintsMoreThanInfo) {
    LogSink info, trace;
    RestoreLogging restore;
    ASSERT_IMEX(imex_l0_set_log_callback(LogSink::receive, &info));
    ASSERT_IMEX(imex_l0_set_log_level(imex_l0_log_info));
    EXPECT_IMEX(imex_l0_stream_wait(stream.get()));
    ASSERT_IMEX(imex_l0_set_log_callback(LogSink::receive, &trace));
    ASSERT_IMEX(imex_l0_set_log_level(imex_l0_log_trace));
    EXPECT_IMEX(imex_l0_stream_wait(stream.get()));
    EXPECT_GT(trace.lines.size(), info.lines.size());
    EXPECT_NE(trace.all().find("imex_l0,trace,call,imex_l0_stream_wait"), std::string::npos)
        << trace.all();
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_set_log_level(static_cast<imex_l0_log_level_t>(42)));
}

// A framework's logger that asks the library something (its version) from
// inside the callback, and records what the library's error message was then.
struct AskingLogger {
    LogSink sink;
    int asked = 0;
    static void receive(imex_l0_log_level_t level, const char *line, void *self) {
        auto *logger = static_cast<AskingLogger *>(self);
        imex_l0_version_t v{};
        if (imex_l0_get_version(&v) == imex_l0_success)
            ++logger->asked;
        LogSink::receive(level, line, &logger->sink);
    }
};

// Runs `body` on another thread; a deadlock fails the test by name instead of
// hanging the suite.
template <typename Body> void withinSeconds(int seconds, Body body) {
    auto done = std::async(std::launch::async, body);
    if (done.wait_for(std::chrono::seconds(seconds)) != std::future_status::ready) {
        std::fprintf(stderr, "deadlock: the call did not return within %d s\n", seconds);
        std::_Exit(1);
    }
    done.get();
}

TEST_F(Logging, CallbackMayCallTheLibraryAtTrace) {
    AskingLogger logger;
    RestoreLogging restore;
    ASSERT_IMEX(imex_l0_set_log_callback(AskingLogger::receive, &logger));
    ASSERT_IMEX(imex_l0_set_log_level(imex_l0_log_trace));
    withinSeconds(10, [&] {
        EXPECT_IMEX(imex_l0_stream_wait(stream.get()));
        // From other threads at once too: lines still arrive one at a time.
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&] {
                for (int i = 0; i < 50; ++i)
                    EXPECT_IMEX(imex_l0_stream_wait(stream.get()));
            });
        for (auto &t : threads)
            t.join();
    });
    ASSERT_IMEX(imex_l0_set_log_callback(nullptr, nullptr));
    EXPECT_GE(logger.asked, 201);
    std::string log = logger.sink.all();
    EXPECT_NE(log.find("imex_l0,trace,call,imex_l0_stream_wait"), std::string::npos) << log;
    EXPECT_EQ(log.find("imex_l0_get_version"), std::string::npos)
        << "the lines of the callback's own calls are not delivered back to it\n" << log;
}

TEST_F(Logging, CallbackLeavesTheFailingCallsMessage) {
    AskingLogger logger;
    RestoreLogging restore;
    ASSERT_IMEX(imex_l0_set_log_callback(AskingLogger::receive, &logger));
    ASSERT_IMEX(imex_l0_set_log_level(imex_l0_log_info));
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments, imex_l0_kernel_destroy(nullptr));
    std::string message = imex_l0_last_error_message();
    EXPECT_NE(message.find("imex_l0_kernel_destroy"), std::string::npos)
        << "the callback's own call wiped the message: '" << message << "'";
    EXPECT_GE(logger.asked, 1);
}

// Splits one CSV line (RFC 4180: quoted fields, doubled quotes).
std::vector<std::string> csvFields(const std::string &line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    EXPECT_FALSE(quoted) << "unterminated quote in: " << line;
    return fields;
}

// A failure whose message has commas and quotes is still one CSV field, and
// a profiled event's timestamps line names what it timed.
TEST_F(Logging, LinesAreValidCsv) {
    LogSink sink;
    RestoreLogging restore;
    ASSERT_IMEX(imex_l0_set_log_callback(LogSink::receive, &sink));
    ASSERT_IMEX(imex_l0_set_log_level(imex_l0_log_info));
    Kernel fill = fromSource("fill_index");
    UsmBuffer out = allocShared(64 * sizeof(uint32_t));
    imex_l0_range_t range = range1d(64);
    // A host pointer as USM: the message lists what it may be, with commas.
    int onTheStack[64] = {};
    imex_l0_exec_arg_t wrong[] = {usmArg(onTheStack)};
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_interop_kernel_execute(fill.get(), stream.get(), 1, wrong, &range,
                                                      0, nullptr, nullptr));
    std::string message = imex_l0_last_error_message();
    ASSERT_NE(message.find(','), std::string::npos) << "the test needs a message with a comma";
    imex_l0_exec_arg_t args[] = {usmArg(out.get())};
    ASSERT_IMEX(imex_l0_stream_set_profiling(stream.get(), 1));
    ze_event_handle_t done = nullptr;
    ASSERT_IMEX(imex_l0_interop_kernel_execute(fill.get(), stream.get(), 1, args, &range, 0,
                                               nullptr, &done));
    ASSERT_ZE(zeEventHostSynchronize(done, UINT64_MAX));
    uint64_t start = 0, end = 0;
    ASSERT_IMEX(imex_l0_event_get_timestamps(engine.get(), done, &start, &end));
    EXPECT_IMEX(imex_l0_event_release(engine.get(), done));
    ASSERT_IMEX(imex_l0_set_log_callback(nullptr, nullptr));
    bool sawFailure = false, sawTimestamps = false;
    for (auto &l : sink.lines) {
        std::vector<std::string> f = csvFields(l.second);
        ASSERT_GE(f.size(), 3u) << l.second;
        EXPECT_EQ(f[0], "imex_l0");
        if (f[2] == "imex_l0_interop_kernel_execute") {
            ASSERT_EQ(f.size(), 5u) << "the message must be one field: " << l.second;
            EXPECT_EQ(f[3], "imex_l0_invalid_arguments");
            EXPECT_EQ(f[4], message);
            sawFailure = true;
        }
        if (f[2] == "event_timestamps") {
            ASSERT_EQ(f.size(), 5u) << l.second;
            EXPECT_EQ(f[3], "fill_index");
            EXPECT_EQ(f[4].rfind("device_us=", 0), 0u) << l.second;
            sawTimestamps = true;
        }
    }
    EXPECT_TRUE(sawFailure) << sink.all();
    EXPECT_TRUE(sawTimestamps) << sink.all();
}

// ---- Profiling and kernel queries.

using Profiling = WithKernels;

TEST_F(Profiling, EventsOfAProfilingStreamCarryDeviceTimes) {
    Kernel k = fromSource("fill_index");
    UsmBuffer out = allocShared(4096 * sizeof(uint32_t));
    imex_l0_exec_arg_t args[] = {usmArg(out.get())};
    imex_l0_range_t range = range1d(4096);
    ASSERT_IMEX(imex_l0_stream_set_profiling(stream.get(), 1));
    uint64_t host0 = 0, before = 0, host1 = 0, after = 0;
    ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &host0, &before));
    ze_event_handle_t done = nullptr;
    ASSERT_IMEX(imex_l0_interop_kernel_execute(k.get(), stream.get(), 1, args, &range, 0, nullptr,
                                               &done));
    ASSERT_ZE(zeEventHostSynchronize(done, UINT64_MAX));
    ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &host1, &after));
    uint64_t start = 0, end = 0;
    ASSERT_IMEX(imex_l0_event_get_timestamps(engine.get(), done, &start, &end));
    EXPECT_LE(before, start);
    EXPECT_LE(start, end);
    EXPECT_LE(end, after);
    for (uint32_t i = 0; i < 4096; ++i)
        ASSERT_EQ(out.as<uint32_t>()[i], i);
    EXPECT_IMEX(imex_l0_event_release(engine.get(), done));

    // Without profiling, events carry no timestamps, and say so.
    ASSERT_IMEX(imex_l0_stream_set_profiling(stream.get(), 0));
    ze_event_handle_t plain = nullptr;
    ASSERT_IMEX(imex_l0_interop_kernel_execute(k.get(), stream.get(), 1, args, &range, 0, nullptr,
                                               &plain));
    ASSERT_ZE(zeEventHostSynchronize(plain, UINT64_MAX));
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_event_get_timestamps(engine.get(), plain, &start, &end));
    EXPECT_NE(lastError().find("carries no timestamps"), std::string::npos) << lastError();
    EXPECT_IMEX(imex_l0_event_release(engine.get(), plain));
}

TEST_F(Profiling, KernelQueries) {
    Kernel k = fromSource("reduce_sum");
    imex_l0_kernel_properties_t props{};
    ASSERT_IMEX(imex_l0_kernel_get_properties(k.get(), &props));
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
    EXPECT_GE(props.max_group_size, 1u);
    EXPECT_LE(props.max_group_size, compute.maxTotalGroupSize);
    EXPECT_GE(props.max_subgroup_size, 1u);
    const size_t global[3] = {1024, 1, 1};
    size_t local[3] = {};
    ASSERT_IMEX(imex_l0_kernel_suggest_group_size(k.get(), global, local));
    EXPECT_GE(local[0], 1u);
    EXPECT_EQ(global[0] % local[0], 0u);
    EXPECT_EQ(local[1], 1u);
    const size_t zero[3] = {0, 1, 1};
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_kernel_suggest_group_size(k.get(), zero, local));
}

// ---- The C++ wrapper.

class CppOwnership : public WithDriver {};

TEST_F(CppOwnership, ChildrenKeepTheirEngineAlive) {
    imex_l0::clear_first_failure();
    imex_l0::stream s;
    imex_l0::memory m;
    {
        imex_l0::engine e(driver, device, context.get());
        ASSERT_TRUE(e);
        s = imex_l0::stream(e);
        m = imex_l0::memory(e, imex_l0_memory_kind_shared, 64);
        // The engine object goes out of scope first: its children keep it.
    }
    ASSERT_TRUE(s);
    ASSERT_TRUE(m);
    std::memset(m.data(), 0, 64);
    int pattern = 7;
    imex_l0::event done = s.memcpy_event(m.data(), &pattern, sizeof pattern);
    ASSERT_TRUE(done);
    EXPECT_TRUE(done.wait());
    EXPECT_EQ(*static_cast<int *>(m.data()), 7);
    done.reset(); // released to the engine's pool
    s.reset();
    m.reset(); // the last child: the engine goes now, cleanly
    EXPECT_EQ(imex_l0::first_failure().status, imex_l0_success)
        << imex_l0::first_failure().message;
}

TEST_F(CppOwnership, EventsAreReleasedOnDestruction) {
    imex_l0::clear_first_failure();
    imex_l0::engine e(driver, device, context.get());
    imex_l0::stream s(e);
    imex_l0::memory m(e, imex_l0_memory_kind_shared, 64);
    ze_event_handle_t raw = nullptr;
    {
        int v = 3;
        imex_l0::event ev = s.memcpy_event(m.data(), &v, sizeof v);
        raw = ev.get();
        ASSERT_TRUE(ev.wait());
    }
    // Released already: a second release is refused.
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments, imex_l0_event_release(e.get(), raw));
    EXPECT_EQ(imex_l0::first_failure().status, imex_l0_success);
}

} // namespace
