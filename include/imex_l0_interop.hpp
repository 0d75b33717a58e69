// Header-only C++ wrapper over imex_l0_interop.h: RAII handles, an error
// exception carrying the status and message, and non-owning wraps of the
// user's Level Zero handles. With IMEX_L0_NO_EXCEPTIONS defined, failures do
// not throw: the failing call returns an empty object (or false) and
// imex_l0::last_status()/imex_l0_last_error_message() tell why.
#ifndef IMEX_L0_INTEROP_HPP
#define IMEX_L0_INTEROP_HPP

#include "imex_l0_interop.h"

#include <string>
#include <utility>
#include <vector>

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

// Checks a C API status: throws error, or records it when exceptions are off.
inline bool check(imex_l0_status_t status) {
    last_status() = status;
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
            Destroy(h_);
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

class engine : public handle<imex_l0_engine_t, imex_l0_engine_destroy> {
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

};

class stream : public handle<imex_l0_stream_t, imex_l0_stream_destroy> {
public:
    stream() = default;
    // A library-owned immediate list.
    explicit stream(const engine &e) {
        imex_l0_stream_t s = nullptr;
        if (check(imex_l0_stream_create(&s, e.get())))
            adopt(s);
    }
    // Over a user immediate list (never destroyed by the library).
    stream(const engine &e, ze_command_list_handle_t immediate_list) {
        imex_l0_stream_t s = nullptr;
        if (check(imex_l0_interop_stream_create(&s, e.get(), immediate_list)))
            adopt(s);
    }
    // Over a user regular list, optionally with the queue wait() executes it on.
    stream(const engine &e, ze_command_list_handle_t regular_list, ze_command_queue_handle_t queue) {
        imex_l0_stream_t s = nullptr;
        if (check(imex_l0_interop_stream_create_regular(&s, e.get(), regular_list, queue)))
            adopt(s);
    }
    ze_command_list_handle_t list() const {
        ze_command_list_handle_t l = nullptr;
        check(imex_l0_interop_stream_get_list(get(), &l));
        return l;
    }
    bool wait() const { return check(imex_l0_stream_wait(get())); }
    // Copies, after deps; returns the completion event (release it with engine::release).
    ze_event_handle_t memcpy(void *dst, const void *src, size_t size,
                             const std::vector<ze_event_handle_t> &deps = {}) const {
        ze_event_handle_t done = nullptr;
        check(imex_l0_interop_memcpy(get(), dst, src, size, deps.size(), deps.data(), &done));
        return done;
    }

};

class memory : public handle<imex_l0_memory_t, imex_l0_memory_destroy> {
public:
    memory() = default;
    // ptr: a user USM pointer, IMEX_L0_MEMORY_NONE or IMEX_L0_MEMORY_ALLOCATE.
    memory(const engine &e, imex_l0_memory_kind_t kind, size_t size,
           void *ptr = IMEX_L0_MEMORY_ALLOCATE) {
        imex_l0_memory_t m = nullptr;
        if (check(imex_l0_interop_memory_create(&m, e.get(), kind, size, ptr)))
            adopt(m);
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

};

// One launch argument.
struct arg : imex_l0_exec_arg_t {
    static arg mem(const imex_l0::memory &m) { return arg{{imex_l0_arg_memory, m.get(), nullptr, 0}}; }
    static arg usm(const void *ptr) { return arg{{imex_l0_arg_usm, nullptr, ptr, 0}}; }
    template <typename T> static arg value(const T &v) {
        return arg{{imex_l0_arg_value, nullptr, &v, sizeof(T)}};
    }
    static arg local(size_t bytes) { return arg{{imex_l0_arg_local, nullptr, nullptr, bytes}}; }
};

class kernel : public handle<imex_l0_kernel_t, imex_l0_kernel_destroy> {
public:
    kernel() = default;
    static kernel from_source(const engine &e, const std::string &source, const std::string &name,
                              const std::string &options = "",
                              const std::vector<imex_l0_define_t> &defines = {}) {
        imex_l0_kernel_t k = nullptr;
        kernel result;
        if (check(imex_l0_kernel_create_from_source(&k, e.get(), source.c_str(), name.c_str(),
                                                    options.c_str(), defines.size(),
                                                    defines.data())))
            result.adopt(k);
        return result;
    }
    static kernel from_spirv(const engine &e, const void *spirv, size_t size,
                             const std::string &name, const std::string &options = "") {
        imex_l0_kernel_t k = nullptr;
        kernel result;
        if (check(imex_l0_kernel_create_from_spirv(&k, e.get(), spirv, size, name.c_str(),
                                                   options.c_str())))
            result.adopt(k);
        return result;
    }
    size_t arg_count() const {
        size_t n = 0;
        check(imex_l0_kernel_get_arg_count(get(), &n));
        return n;
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
        std::vector<imex_l0_exec_arg_t> c(args.begin(), args.end());
        ze_event_handle_t done = nullptr;
        check(imex_l0_interop_kernel_execute(get(), s.get(), c.size(), c.data(), &range,
                                             deps.size(), deps.data(),
                                             want_event ? &done : nullptr));
        return done;
    }

};

} // namespace imex_l0

#endif // IMEX_L0_INTEROP_HPP
