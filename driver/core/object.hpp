// What every entry point of the driver shares: the error type that carries a
// ze_result_t out of C++ code, the type tag that lets a handle be checked
// before it is used, and the boundary that turns exceptions into results.
#pragma once

#include "fault.hpp"

#include <level_zero/ze_api.h>

#include <atomic>
#include <cstdint>
#include <new>
#include <string>

namespace ze_driver {

// Thrown anywhere inside the driver; the entry point returns `result`.
struct Error {
    ze_result_t result;
};

[[noreturn]] inline void fail(ze_result_t result) {
    throw Error{result};
}

inline void check(bool condition, ze_result_t result) {
    if (!condition)
        fail(result);
}

// One tag per object type. A handle's first bytes are checked against the tag
// of the type the entry point expects, so a handle of another type, or one
// already destroyed (the destructor clears the tag), is rejected instead of
// being used. It is a cheap check, not a guarantee: a freed handle whose memory
// was reused can still pass.
enum class Tag : uint64_t {
    None = 0,
    Driver = 0x5a454f43'44525652,         // "ZEOCDRVR"
    Device = 0x5a454f43'44455643,         // "ZEOCDEVC"
    Context = 0x5a454f43'43545854,        // "ZEOCCTXT"
    CommandQueue = 0x5a454f43'51554555,   // "ZEOCQUEU"
    CommandList = 0x5a454f43'4c495354,    // "ZEOCLIST"
    EventPool = 0x5a454f43'504f4f4c,      // "ZEOCPOOL"
    Event = 0x5a454f43'45564e54,          // "ZEOCEVNT"
    Fence = 0x5a454f43'46454e43,          // "ZEOCFENC"
    Module = 0x5a454f43'4d4f444c,         // "ZEOCMODL"
    ModuleBuildLog = 0x5a454f43'424c4f47, // "ZEOCBLOG"
    Kernel = 0x5a454f43'4b52454c,         // "ZEOCKREL"
    PhysicalMemory = 0x5a454f43'50484d45, // "ZEOCPHME"
    Image = 0x5a454f43'494d4147,          // "ZEOCIMAG"
    Sampler = 0x5a454f43'534d504c,        // "ZEOCSMPL"
};

// The base of every object a handle can point to. Handles are pointers to this
// base, so the tag is at the handle's address whatever the derived layout.
class Object {
public:
    explicit Object(Tag tag) : tag_(tag) {}
    ~Object() { tag_ = Tag::None; }
    Object(const Object &) = delete;
    Object &operator=(const Object &) = delete;
    Tag tag() const { return tag_; }
    // The application destroyed the handle while children still keep the
    // object alive (see Counted): the handle is refused from now on.
    void retire() { tag_ = Tag::None; }

private:
    volatile Tag tag_; // volatile: the destructor's store must not be optimised away
};

// The lifetime rule for parents (contexts, modules, command queues): the
// application's handle holds one reference and every child one more, so a
// parent destroyed before its children (an application's error the spec
// leaves undefined, which real runtimes commit) retires its handle at once
// and goes away with its last child. Children therefore never see freed
// memory; calls with the retired handle itself return INVALID_ARGUMENT.
template <class T> class Counted {
public:
    void retain() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
    void release() noexcept {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1)
            delete static_cast<T *>(this);
    }
    // The handle's destroy call: retire the handle, drop its reference.
    static void destroyHandle(T *object) noexcept {
        object->retire();
        object->release();
    }

private:
    std::atomic<uint32_t> refs_{1}; // the handle's
};

// A child's reference to its parent.
template <class T> class Ref {
public:
    explicit Ref(T *object) : object_(object) { object_->retain(); }
    ~Ref() { object_->release(); }
    Ref(const Ref &) = delete;
    Ref &operator=(const Ref &) = delete;
    T *get() const { return object_; }
    T *operator->() const { return object_; }
    operator T *() const { return object_; }

private:
    T *const object_;
};

template <class T, class Handle> Handle toHandle(T *object) {
    return reinterpret_cast<Handle>(static_cast<Object *>(object));
}

// The object behind a handle, or an Error: null -> INVALID_NULL_HANDLE, any
// other type or a destroyed object -> INVALID_ARGUMENT.
template <class T, class Handle> T *fromHandle(Handle handle) {
    if (handle == nullptr)
        fail(ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
    auto *object = reinterpret_cast<Object *>(handle);
    if (object->tag() != T::kTag)
        fail(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    return static_cast<T *>(object);
}

template <class P> P *notNull(P *pointer) {
    if (pointer == nullptr)
        fail(ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    return pointer;
}

// Logs a call that is over (ZE_OPENCL_TRACE, see options.def).
void traceCall(const char *entry, ze_result_t result);
// What ZE_<backend>_TRACE asks for (options.def), read once.
enum class TraceLevel { Off, Errors, All };
TraceLevel traceLevel();
// Whether traceCall has anything to do for `result`. Inline, since every
// entry point asks: the level's static is one check of its guard.
inline bool traceWanted(ze_result_t result) {
    static const TraceLevel level = traceLevel();
    // NOT_READY is an answer (a poll or a wait that timed out), not an error.
    return level == TraceLevel::All ||
           (level == TraceLevel::Errors && result != ZE_RESULT_SUCCESS &&
            result != ZE_RESULT_NOT_READY);
}

// The one boundary between C callers and the driver's C++: nothing thrown
// inside escapes an entry point. `entry` names the entry point for tracing.
template <class F> ze_result_t boundary(const char *entry, F &&body) noexcept {
    ze_result_t result;
    if (fault::armed.load(std::memory_order_relaxed) && fault::fire(entry, &result)) {
        if (traceWanted(result))
            traceCall(entry, result);
        return result;
    }
    try {
        result = body();
    } catch (const Error &e) {
        result = e.result;
    } catch (const std::bad_alloc &) {
        result = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    } catch (...) {
        result = ZE_RESULT_ERROR_UNKNOWN;
    }
    if (traceWanted(result))
        traceCall(entry, result);
    return result;
}

// The table getters accept any minor version of the major version the driver
// implements; the loader asks for its own current version.
inline ze_result_t checkTableRequest(ze_api_version_t version, const void *table) {
    if (table == nullptr)
        return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
    if (ZE_MAJOR_VERSION(version) != ZE_MAJOR_VERSION(ZE_API_VERSION_CURRENT))
        return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
    return ZE_RESULT_SUCCESS;
}

// A whole table the driver does not implement (or not on this backend): every
// entry null, which the loader reports as unsupported. The loader refuses a
// driver that does not export every table it knows.
template <class Table> ze_result_t emptyTable(ze_api_version_t version, Table *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    *t = Table{};
    return ZE_RESULT_SUCCESS;
}

// A table entry for an operation the driver does not implement: any signature,
// always UNSUPPORTED_FEATURE, so the loader and the application see a result
// instead of a null function pointer.
template <class Pfn> struct Unsupported;
template <class... Args> struct Unsupported<ze_result_t(ZE_APICALL *)(Args...)> {
    static ze_result_t ZE_APICALL entry(Args...) { return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE; }
};
template <class Pfn> void setUnsupported(Pfn &slot) {
    slot = &Unsupported<Pfn>::entry;
}

// Copies a string into a fixed-size L0 character array, always terminated.
template <size_t N> void copyName(char (&out)[N], const std::string &in) {
    size_t n = in.size() < N - 1 ? in.size() : N - 1;
    in.copy(out, n);
    out[n] = '\0';
}

// FNV-1a: the stable (across runs and builds) hash behind driver and device UUIDs.
inline uint64_t fnv1a(const std::string &s, uint64_t seed) {
    uint64_t h = 1469598103934665603ull ^ seed;
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

} // namespace ze_driver
