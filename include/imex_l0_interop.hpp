// Header-only C++ wrapper over imex_l0_interop.h: RAII handles, an error
// exception carrying the status and message, and non-owning wraps of the
// user's Level Zero handles. With IMEX_L0_NO_EXCEPTIONS defined, or when
// compiled without exceptions (-fno-exceptions), failures do not throw: the
// failing call returns an empty object (or false) and
// imex_l0::last_status()/imex_l0_last_error_message() tell why; the first
// failure since clear_first_failure() is kept by first_failure(), so a later
// call cannot overwrite it. Each mode's classes live in an inline namespace
// of their own (imex_l0::throwing or imex_l0::nonthrowing), so translation
// units built in both modes link into one program without either taking the
// other's inline functions; the status functions are shared.
//
// Ownership order cannot go wrong: an engine is shared by the streams,
// memory objects, kernels and events made from it, so the Level Zero context
// it wraps goes (imex_l0_engine_destroy) only after the last of them. A
// destroy that fails in a destructor (which cannot throw) is recorded as a
// failure.
#ifndef IMEX_L0_INTEROP_HPP
#define IMEX_L0_INTEROP_HPP

#include "imex_l0_interop.h"

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if !defined(IMEX_L0_NO_EXCEPTIONS) && !defined(__cpp_exceptions)
#define IMEX_L0_NO_EXCEPTIONS
#endif

#ifndef IMEX_L0_NO_EXCEPTIONS
#include <stdexcept>
#endif

namespace imex_l0 {

#ifndef IMEX_L0_NO_EXCEPTIONS
class error : public std::runtime_error {
public:
    error(imex_l0_status_t status, const std::string &message)
        : std::runtime_error(message), status_(status) {}
    imex_l0_status_t status() const noexcept { return status_; }

private:
    imex_l0_status_t status_;
};
#endif

// The status of this thread's last wrapped call.
inline imex_l0_status_t &last_status() {
    static thread_local imex_l0_status_t status = imex_l0_success;
    return status;
}

// The first failure of this thread's wrapped calls (and destructors) since
// clear_first_failure(): its status and message.
struct failure {
    imex_l0_status_t status = imex_l0_success;
    std::string message;
};
inline failure &first_failure() {
    static thread_local failure first;
    return first;
}
inline void clear_first_failure() { first_failure() = failure{}; }

// Records a failing status (first_failure keeps the earliest).
inline void record(imex_l0_status_t status) {
    last_status() = status;
    if (status != imex_l0_success && first_failure().status == imex_l0_success)
        first_failure() = failure{status, imex_l0_last_error_message()};
}

#ifndef IMEX_L0_NO_EXCEPTIONS
inline namespace throwing {
#else
inline namespace nonthrowing {
#endif

// Checks a C API status: throws error, or records it when exceptions are off.
inline bool check(imex_l0_status_t status) {
    record(status);
    if (status == imex_l0_success)
        return true;
#ifndef IMEX_L0_NO_EXCEPTIONS
    throw error(status, std::string(imex_l0_status_str(status)) + ": " +
                            imex_l0_last_error_message());
#else
    return false;
#endif
}

// A move-only owner of one C handle, destroyed with Destroy.
template <typename T, imex_l0_status_t (*Destroy)(T)> class handle {
public:
    handle() = default;
    explicit handle(T h) : h_(h) {}
    handle(handle &&other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
    handle &operator=(handle &&other) noexcept {
        if (this != &other) {
            reset();
            h_ = std::exchange(other.h_, nullptr);
        }
        return *this;
    }
    handle(const handle &) = delete;
    handle &operator=(const handle &) = delete;
    ~handle() { reset(); }

    T get() const { return h_; }
    explicit operator bool() const { return h_ != nullptr; }
    void reset() {
        if (h_)
            record(Destroy(h_)); // no throw: reset runs in destructors
        h_ = nullptr;
    }

protected:
    // Takes ownership of a handle the C API just created.
    void adopt(T h) {
        reset();
        h_ = h;
    }

private:
    T h_ = nullptr;
};

// An engine, shared: copies, and every object made from it, keep it alive.
class engine {
public:
    engine() = default;
    // The library's own context on device number device_index of the first driver.
    explicit engine(uint32_t device_index) {
        imex_l0_engine_t e = nullptr;
        if (check(imex_l0_engine_create(&e, device_index)))
            adopt(e);
    }
    // Wraps user handles without owning them; context may be nullptr.
    engine(ze_driver_handle_t driver, ze_device_handle_t device, ze_context_handle_t context) {
        imex_l0_engine_t e = nullptr;
        if (check(imex_l0_interop_engine_create(&e, driver, device, context)))
            adopt(e);
    }
    // Takes ownership of an engine the C API created (destroyed with the last copy).
    static engine take_ownership(imex_l0_engine_t e) {
        engine result;
        if (e)
            result.adopt(e);
        return result;
    }
    imex_l0_engine_t get() const { return shared_.get(); }
    explicit operator bool() const { return bool(shared_); }
    // Drops this reference; the engine goes with the last one.
    void reset() { shared_.reset(); }
    ze_driver_handle_t driver() const {
        ze_driver_handle_t d = nullptr;
        check(imex_l0_interop_engine_get_driver(get(), &d));
        return d;
    }
    ze_device_handle_t device() const {
        ze_device_handle_t d = nullptr;
        check(imex_l0_interop_engine_get_device(get(), &d));
        return d;
    }
    ze_context_handle_t context() const {
        ze_context_handle_t c = nullptr;
        check(imex_l0_interop_engine_get_context(get(), &c));
        return c;
    }
    std::string device_name() const {
        const char *name = nullptr;
        return check(imex_l0_engine_get_device_name(get(), &name)) ? name : "";
    }
    // Returns an event the library handed out to the engine's pool.
    bool release(ze_event_handle_t event) const {
        return check(imex_l0_event_release(get(), event));
    }
    // The device start and end (ns) of a profiled command's event.
    bool timestamps(ze_event_handle_t event, uint64_t &start_ns, uint64_t &end_ns) const {
        return check(imex_l0_event_get_timestamps(get(), event, &start_ns, &end_ns));
    }

private:
    using shared = std::shared_ptr<std::remove_pointer_t<imex_l0_engine_t>>;
    void adopt(imex_l0_engine_t e) {
        shared_ = shared(e, [](imex_l0_engine_t x) { record(imex_l0_engine_destroy(x)); });
    }
    shared shared_;
};

// The engine reference of an object made from it: a base listed before the
// object's handle, so the object is destroyed before the reference goes.
class engine_ref {
public:
    engine_ref() = default;
    explicit engine_ref(const engine &e) : engine_(e) {}
    const engine &owner() const { return engine_; }

private:
    engine engine_;
};

// A handle made from an engine. The engine reference is a base declared
// before the handle, so destruction (and move assignment, written out for
// that) lets the object go before its engine can.
template <typename T, imex_l0_status_t (*Destroy)(T)>
class engine_object : engine_ref, public handle<T, Destroy> {
public:
    engine_object() = default;
    explicit engine_object(const engine &e) : engine_ref(e) {}
    engine_object(engine_object &&) noexcept = default;
    engine_object &operator=(engine_object &&other) noexcept {
        if (this != &other) {
            handle<T, Destroy>::operator=(std::move(other));
            engine_ref::operator=(std::move(other));
        }
        return *this;
    }
    using engine_ref::owner;

protected:
    // Tag of the constructors that take ownership of a C handle.
    struct adopting {};
};

// An event the library handed out, released to its engine's pool on
// destruction (the engine stays alive until then).
class event : engine_ref {
public:
    event() = default;
    // Takes ownership of `e`, an event `owner` returned (a launch's, a copy's).
    event(const engine &owner, ze_event_handle_t e) : engine_ref(owner), event_(e) {}
    event(event &&other) noexcept
        : engine_ref(std::move(other)), event_(std::exchange(other.event_, nullptr)) {}
    event &operator=(event &&other) noexcept {
        if (this != &other) {
            reset();
            engine_ref::operator=(std::move(other));
            event_ = std::exchange(other.event_, nullptr);
        }
        return *this;
    }
    event(const event &) = delete;
    event &operator=(const event &) = delete;
    ~event() { reset(); }

    ze_event_handle_t get() const { return event_; }
    explicit operator bool() const { return event_ != nullptr; }
    // Blocks until the event is signaled.
    bool wait() const {
        bool ok = zeEventHostSynchronize(event_, UINT64_MAX) == ZE_RESULT_SUCCESS;
        if (!ok)
            record(imex_l0_runtime_error);
        return ok;
    }
    void reset() {
        if (event_)
            record(imex_l0_event_release(owner().get(), event_));
        event_ = nullptr;
    }

private:
    ze_event_handle_t event_ = nullptr;
};

class stream : public engine_object<imex_l0_stream_t, imex_l0_stream_destroy> {
public:
    stream() = default;
    // A library-owned immediate list.
    explicit stream(const engine &e) : engine_object(e) {
        imex_l0_stream_t s = nullptr;
        if (check(imex_l0_stream_create(&s, e.get())))
            adopt(s);
    }
    // Over a user immediate list (never destroyed by the library).
    stream(const engine &e, ze_command_list_handle_t immediate_list) : engine_object(e) {
        imex_l0_stream_t s = nullptr;
        if (check(imex_l0_interop_stream_create(&s, e.get(), immediate_list)))
            adopt(s);
    }
    // Over a user regular list, optionally with the queue wait() executes it on.
    stream(const engine &e, ze_command_list_handle_t regular_list, ze_command_queue_handle_t queue)
        : engine_object(e) {
        imex_l0_stream_t s = nullptr;
        if (check(imex_l0_interop_stream_create_regular(&s, e.get(), regular_list, queue)))
            adopt(s);
    }
    ze_command_list_handle_t list() const {
        ze_command_list_handle_t l = nullptr;
        check(imex_l0_interop_stream_get_list(get(), &l));
        return l;
    }
    // Takes ownership of a stream the C API made from `e`.
    static stream take_ownership(const engine &e, imex_l0_stream_t s) {
        return stream(adopting{}, e, s);
    }
    bool wait() const { return check(imex_l0_stream_wait(get())); }
    // A wait of at most timeout_ns: false with last_status() imex_l0_timeout
    // when the work is not done by then.
    bool wait_for(uint64_t timeout_ns) const {
        return check(imex_l0_stream_wait_timeout(get(), timeout_ns));
    }
    // The owner of the regular list reset it: its events may be recycled.
    bool list_reset() const { return check(imex_l0_interop_stream_list_reset(get())); }
    bool set_profiling(bool on) const { return check(imex_l0_stream_set_profiling(get(), on)); }
    // Fills size bytes with the pattern; returns the completion event.
    ze_event_handle_t memset(void *dst, const void *pattern, size_t pattern_size, size_t size,
                             const std::vector<ze_event_handle_t> &deps = {}) const {
        ze_event_handle_t done = nullptr;
        check(imex_l0_interop_memset(get(), dst, pattern, pattern_size, size, deps.size(),
                                     deps.data(), &done));
        return done;
    }
    // A copy that signals the caller's own event.
    bool memcpy_signal(void *dst, const void *src, size_t size, ze_event_handle_t signal,
                       const std::vector<ze_event_handle_t> &deps = {}) const {
        return check(imex_l0_interop_memcpy_signal(get(), dst, src, size, deps.size(),
                                                   deps.data(), signal));
    }
    // Copies, after deps; returns the completion event (release it with engine::release).
    ze_event_handle_t memcpy(void *dst, const void *src, size_t size,
                             const std::vector<ze_event_handle_t> &deps = {}) const {
        ze_event_handle_t done = nullptr;
        check(imex_l0_interop_memcpy(get(), dst, src, size, deps.size(), deps.data(), &done));
        return done;
    }
    // The same, with the event released when the returned object goes.
    event memcpy_event(void *dst, const void *src, size_t size,
                       const std::vector<ze_event_handle_t> &deps = {}) const {
        ze_event_handle_t done = memcpy(dst, src, size, deps);
        return done ? event(owner(), done) : event();
    }

private:
    stream(adopting, const engine &e, imex_l0_stream_t s) : engine_object(e) { adopt(s); }
};

class memory : public engine_object<imex_l0_memory_t, imex_l0_memory_destroy> {
public:
    memory() = default;
    // ptr: a user USM pointer, IMEX_L0_MEMORY_NONE or IMEX_L0_MEMORY_ALLOCATE.
    memory(const engine &e, imex_l0_memory_kind_t kind, size_t size,
           void *ptr = IMEX_L0_MEMORY_ALLOCATE)
        : engine_object(e) {
        imex_l0_memory_t m = nullptr;
        if (check(imex_l0_interop_memory_create(&m, e.get(), kind, size, ptr)))
            adopt(m);
    }
    // Takes ownership of a memory object the C API made from `e`.
    static memory take_ownership(const engine &e, imex_l0_memory_t m) {
        return memory(adopting{}, e, m);
    }
    imex_l0_memory_kind_t kind() const {
        imex_l0_memory_kind_t k = imex_l0_memory_kind_device;
        check(imex_l0_memory_get_kind(get(), &k));
        return k;
    }
    void *data(size_t index = 0) const {
        void *p = nullptr;
        check(imex_l0_interop_memory_get_mem_object(get(), index, &p));
        return p;
    }
    bool set_data(void *ptr, size_t index = 0) const {
        return check(imex_l0_interop_memory_set_mem_object(get(), index, ptr));
    }
    size_t size(size_t index = 0) const {
        size_t s = 0;
        check(imex_l0_memory_get_size(get(), index, &s));
        return s;
    }

private:
    memory(adopting, const engine &e, imex_l0_memory_t m) : engine_object(e) { adopt(m); }
};

// One launch argument.
struct arg : imex_l0_exec_arg_t {
    // Buffer `index` of the memory object.
    static arg mem(const imex_l0::memory &m, size_t index = 0) {
        return arg{{imex_l0_arg_memory, m.get(), nullptr, index}};
    }
    static arg usm(const void *ptr) { return arg{{imex_l0_arg_usm, nullptr, ptr, 0}}; }
    template <typename T> static arg value(const T &v) {
        return arg{{imex_l0_arg_value, nullptr, &v, sizeof(T)}};
    }
    static arg local(size_t bytes) { return arg{{imex_l0_arg_local, nullptr, nullptr, bytes}}; }
};

class kernel : public engine_object<imex_l0_kernel_t, imex_l0_kernel_destroy> {
public:
    kernel() = default;
    explicit kernel(const engine &e) : engine_object(e) {}
    // headers: this compile's own (imex_l0_kernel_create_from_source_with_headers).
    static kernel from_source(const engine &e, const std::string &source, const std::string &name,
                              const std::string &options = "",
                              const std::vector<imex_l0_define_t> &defines = {},
                              const std::vector<imex_l0_header_t> &headers = {}) {
        imex_l0_kernel_t k = nullptr;
        kernel result(e);
        if (check(imex_l0_kernel_create_from_source_with_headers(
                &k, e.get(), source.c_str(), name.c_str(), options.c_str(), defines.size(),
                defines.data(), headers.size(), headers.data())))
            result.adopt(k);
        return result;
    }
    // A library kernel over the caller's own Level Zero kernel
    // (imex_l0_interop_kernel_create_from_handle).
    static kernel from_handle(const engine &e, ze_module_handle_t module, ze_kernel_handle_t handle,
                              imex_l0_ownership_t ownership) {
        imex_l0_kernel_t k = nullptr;
        kernel result(e);
        if (check(imex_l0_interop_kernel_create_from_handle(&k, e.get(), module, handle,
                                                            ownership)))
            result.adopt(k);
        return result;
    }
    static kernel from_spirv(const engine &e, const void *spirv, size_t size,
                             const std::string &name, const std::string &options = "") {
        imex_l0_kernel_t k = nullptr;
        kernel result(e);
        if (check(imex_l0_kernel_create_from_spirv(&k, e.get(), spirv, size, name.c_str(),
                                                   options.c_str())))
            result.adopt(k);
        return result;
    }
    // From SPIR-V with specialization constants.
    static kernel from_spirv(const engine &e, const void *spirv, size_t size,
                             const std::string &name,
                             const std::vector<imex_l0_spec_constant_t> &constants,
                             const std::string &options = "") {
        imex_l0_kernel_t k = nullptr;
        kernel result(e);
        if (check(imex_l0_kernel_create_from_spirv_specialized(&k, e.get(), spirv, size,
                                                               name.c_str(), options.c_str(),
                                                               constants.size(),
                                                               constants.data())))
            result.adopt(k);
        return result;
    }
    // Takes ownership of a kernel the C API made from `e`.
    static kernel take_ownership(const engine &e, imex_l0_kernel_t k) {
        kernel result(e);
        result.adopt(k);
        return result;
    }
    size_t arg_count() const {
        size_t n = 0;
        check(imex_l0_kernel_get_arg_count(get(), &n));
        return n;
    }
    // The kind and byte size of argument `index`.
    bool arg_info(size_t index, imex_l0_arg_kind_t &kind, size_t &size) const {
        return check(imex_l0_kernel_get_arg_info(get(), index, &kind, &size));
    }
    imex_l0_kernel_properties_t properties() const {
        imex_l0_kernel_properties_t p{};
        check(imex_l0_kernel_get_properties(get(), &p));
        return p;
    }
    std::vector<size_t> suggest_group_size(const size_t global[3]) const {
        std::vector<size_t> local(3, 0);
        check(imex_l0_kernel_suggest_group_size(get(), global, local.data()));
        return local;
    }
    // The warnings of its source build ("" for SPIR-V).
    std::string build_log() const {
        const char *log = nullptr;
        return check(imex_l0_kernel_get_build_log(get(), &log)) && log ? log : "";
    }
    ze_kernel_handle_t native() const {
        ze_kernel_handle_t h = nullptr;
        check(imex_l0_interop_kernel_get_handle(get(), &h));
        return h;
    }
    // Appends the launch after deps; returns its completion event when
    // want_event (release it with engine::release), else nullptr.
    ze_event_handle_t execute(const stream &s, const std::vector<arg> &args,
                              const imex_l0_range_t &range,
                              const std::vector<ze_event_handle_t> &deps = {},
                              bool want_event = true) const {
        return execute(s, args, range, imex_l0_launch_options_t{}, deps, want_event);
    }
    // With launch options (global offset, group count, the caller's event;
    // with a signal_event, want_event must be false).
    ze_event_handle_t execute(const stream &s, const std::vector<arg> &args,
                              const imex_l0_range_t &range,
                              const imex_l0_launch_options_t &options,
                              const std::vector<ze_event_handle_t> &deps = {},
                              bool want_event = true) const {
        std::vector<imex_l0_exec_arg_t> c(args.begin(), args.end());
        ze_event_handle_t done = nullptr;
        check(imex_l0_interop_kernel_execute_ex(get(), s.get(), c.size(), c.data(), &range,
                                                &options, deps.size(), deps.data(),
                                                want_event ? &done : nullptr));
        return done;
    }
    // The same, with the event released when the returned object goes.
    event execute_event(const stream &s, const std::vector<arg> &args,
                        const imex_l0_range_t &range,
                        const std::vector<ze_event_handle_t> &deps = {}) const {
        ze_event_handle_t done = execute(s, args, range, deps, true);
        return done ? event(owner(), done) : event();
    }

};

// The library loaded at run time.
inline imex_l0_version_t version() {
    imex_l0_version_t v{};
    check(imex_l0_get_version(&v));
    return v;
}
inline bool set_log_level(imex_l0_log_level_t level) {
    return check(imex_l0_set_log_level(level));
}
inline bool set_log_callback(imex_l0_log_callback_t callback, void *user_data = nullptr) {
    return check(imex_l0_set_log_callback(callback, user_data));
}
inline bool register_header(const std::string &name, const std::string &contents) {
    return check(imex_l0_register_header(name.c_str(), contents.c_str()));
}
// OpenCL C to SPIR-V (no device); `log` receives the build log when given.
// headers: this compile's own (imex_l0_compile_opencl_c_with_headers).
inline std::vector<char> compile_opencl_c(const std::string &source,
                                          const std::string &options = "",
                                          const std::vector<imex_l0_define_t> &defines = {},
                                          std::string *log = nullptr,
                                          const std::vector<imex_l0_header_t> &headers = {}) {
    void *spirv = nullptr;
    size_t size = 0;
    char *text = nullptr;
    bool ok = check(imex_l0_compile_opencl_c_with_headers(
        source.c_str(), options.c_str(), defines.size(), defines.data(), headers.size(),
        headers.data(), &spirv, &size, &text));
    if (log)
        *log = text ? text : "";
    std::vector<char> result;
    if (ok && spirv)
        result.assign(static_cast<char *>(spirv), static_cast<char *>(spirv) + size);
    imex_l0_free(spirv);
    imex_l0_free(text);
    return result;
}

} // inline namespace throwing / nonthrowing
} // namespace imex_l0

#endif // IMEX_L0_INTEROP_HPP
