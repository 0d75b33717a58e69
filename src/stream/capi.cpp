// C entry points of streams and of the copy/fill submissions.
#include "common/verbose.hpp"
#include "stream/stream.hpp"

#include <memory>

using namespace imex_l0;

namespace {

imex_l0_status_t createStream(imex_l0_stream_t *stream, imex_l0_engine_t engine, Stream::Kind kind,
                              ze_command_list_handle_t list, ze_command_queue_handle_t queue) {
    requireOutput(stream, "stream");
    auto *e = validate<Engine>(engine, "engine");
    auto s = std::make_unique<Stream>(e, kind, list, queue);
    s->init();
    if (verboseAt(Verbosity::info))
        logLine(Verbosity::info, std::string("stream_create,") +
                                     (kind == Stream::Kind::ownedImmediate ? "owned immediate"
                                      : kind == Stream::Kind::userImmediate ? "user immediate"
                                                                             : "user regular"));
    *stream = reinterpret_cast<imex_l0_stream_t>(s.release());
    return imex_l0_success;
}

} // namespace

extern "C" {

imex_l0_status_t imex_l0_interop_stream_create(imex_l0_stream_t *stream, imex_l0_engine_t engine,
                                               ze_command_list_handle_t list) {
    return guard(__func__, [&] {
        return createStream(stream, engine, Stream::Kind::userImmediate, list, nullptr);
    });
}

imex_l0_status_t imex_l0_interop_stream_create_regular(imex_l0_stream_t *stream,
                                                       imex_l0_engine_t engine,
                                                       ze_command_list_handle_t list,
                                                       ze_command_queue_handle_t queue) {
    return guard(__func__, [&] {
        return createStream(stream, engine, Stream::Kind::userRegular, list, queue);
    });
}

imex_l0_status_t imex_l0_interop_stream_list_reset(imex_l0_stream_t stream) {
    return guard(__func__, [&] {
        validate<Stream>(stream, "stream")->listReset();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_stream_create(imex_l0_stream_t *stream, imex_l0_engine_t engine) {
    return guard(__func__, [&] {
        return createStream(stream, engine, Stream::Kind::ownedImmediate, nullptr, nullptr);
    });
}

imex_l0_status_t imex_l0_interop_stream_get_list(imex_l0_stream_t stream,
                                                 ze_command_list_handle_t *list) {
    return guard(__func__, [&] {
        auto *s = validate<Stream>(stream, "stream");
        requireOutput(list, "list");
        *list = s->list();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_stream_wait(imex_l0_stream_t stream) {
    return guard(__func__, [&] {
        validate<Stream>(stream, "stream")->wait();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_stream_wait_timeout(imex_l0_stream_t stream, uint64_t timeout_ns) {
    return guard(__func__, [&] {
        validate<Stream>(stream, "stream")->wait(timeout_ns);
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_stream_destroy(imex_l0_stream_t stream) {
    return guard(__func__, [&] {
        delete validate<Stream>(stream, "stream");
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_memcpy(imex_l0_stream_t stream, void *dst, const void *src,
                                        size_t size, size_t ndeps, const ze_event_handle_t *deps,
                                        ze_event_handle_t *return_event) {
    return guard(__func__, [&] {
        validate<Stream>(stream, "stream")->memcpy(dst, src, size, ndeps, deps, return_event);
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_memcpy_signal(imex_l0_stream_t stream, void *dst,
                                               const void *src, size_t size, size_t ndeps,
                                               const ze_event_handle_t *deps,
                                               ze_event_handle_t signal_event) {
    return guard(__func__, [&] {
        if (!signal_event)
            failInvalid("signal_event is NULL: pass the event to signal (or use "
                        "imex_l0_interop_memcpy)");
        validate<Stream>(stream, "stream")->memcpy(dst, src, size, ndeps, deps, nullptr,
                                                   signal_event);
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_memset(imex_l0_stream_t stream, void *dst, const void *pattern,
                                        size_t pattern_size, size_t size, size_t ndeps,
                                        const ze_event_handle_t *deps,
                                        ze_event_handle_t *return_event) {
    return guard(__func__, [&] {
        validate<Stream>(stream, "stream")->memset(dst, pattern, pattern_size, size, ndeps, deps,
                                                   return_event);
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_stream_set_profiling(imex_l0_stream_t stream, int enable) {
    return guard(__func__, [&] {
        validate<Stream>(stream, "stream")->setProfiling(enable != 0);
        return imex_l0_success;
    });
}

} // extern "C"
