// An engine: one Level Zero driver/device/context triple, wrapped without
// taking ownership (or with a context the engine created and owns), plus
// what the library keeps per device: cached properties, the compute
// queue-group ordinal, the event pool and the module/kernel cache.
#pragma once

#include "common/object.hpp"
#include "engine/event_pool.hpp"
#include "memory/usm_ranges.hpp"

#include <level_zero/ze_api.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

namespace imex_l0 {

class KernelCache;

class Engine : public Tagged<0x454e47494e45ull /* "ENGINE" */> {
public:
    Engine(ze_driver_handle_t driver, ze_device_handle_t device, ze_context_handle_t context);
    ~Engine();

    // Validates the handles, creates the context when none was given, caches
    // device properties. Throws on failure (the constructor cannot fail).
    void init();

    // zeInit, the first driver, its device number deviceIndex, a context the
    // engine owns.
    static std::unique_ptr<Engine> createDefault(uint32_t deviceIndex);
    // The driver a device belongs to (not_found if none does).
    static ze_driver_handle_t driverOf(ze_device_handle_t device);
    // zeInit, then device number deviceIndex of the first driver (and that
    // driver in *driver when not null); not_found when there is none.
    static ze_device_handle_t firstDriverDevice(uint32_t deviceIndex, ze_driver_handle_t *driver);

    // Unique within the process and never reused, unlike the address: what
    // caches outside the engine key it by.
    uint64_t serial() const { return serial_; }
    ze_driver_handle_t driver() const { return driver_; }
    ze_device_handle_t device() const { return device_; }
    ze_context_handle_t context() const { return context_; }
    const std::string &deviceName() const { return deviceName_; }
    // The largest single USM allocation the device supports (bytes).
    uint64_t maxMemAllocSize() const { return maxMemAllocSize_; }
    // Refuses an allocation larger than maxMemAllocSize(): the caller asked
    // for something the device cannot do, which is not running out of memory.
    void checkAllocationSize(size_t size) const;
    const ze_device_compute_properties_t &compute() const { return compute_; }
    // Allocations of the context already found to be USM (launch checks).
    UsmRanges &usmRanges() { return usmRanges_; }
    // Length of a device timestamp tick (ns) and the valid bits of kernel timestamps.
    uint64_t timerResolutionNs() const { return timerResolutionNs_; }
    uint32_t kernelTimestampValidBits() const { return kernelTimestampValidBits_; }
    uint32_t computeOrdinal() const { return computeOrdinal_; }
    // Highest SPIR-V version the device consumes, as 0x00MMmm00 (1.2 = 0x00010200).
    uint32_t spirvVersion() const { return spirvVersion_; }
    // Build options that make OpenCL C compiled for the device see only the
    // optional features it has: the spir target claims them all, and a
    // kernel that tests an extension macro would otherwise take a path the
    // device cannot link (docs/compiler.md, "Predefined macros").
    const std::string &featureOptions() const { return featureOptions_; }
    // Whether a failed zeModuleCreate's build log can be read (see options.def).
    bool buildLogsReadable() const { return buildLogsReadable_; }

    EventPool &events() { return *events_; }
    // Events that record their command's device start and end (kernel
    // timestamps), for streams with profiling on; created on first use.
    EventPool &timestampEvents();
    // Whichever of the engine's pools handed `event` out (events() for an
    // event of neither, which refuses it).
    EventPool &poolOf(ze_event_handle_t event);
    // Gives an event back to whichever of the engine's pools handed it out;
    // invalid_arguments for an event of neither.
    void releaseEvent(ze_event_handle_t event) { poolOf(event).release(event); }
    // An event of the engine's context, signaled once and never reset: a wait
    // on it is a no-op that only a list of this context accepts.
    ze_event_handle_t &probeEvent() { return probeEvent_; }
    KernelCache &kernels() { return *kernels_; }

    // Streams, memory objects and kernels made from this engine. Destroying an
    // engine that still has some is refused, so no object outlives its context.
    void attach() { children_.fetch_add(1, std::memory_order_relaxed); }
    void detach() { children_.fetch_sub(1, std::memory_order_relaxed); }
    size_t children() const { return children_.load(std::memory_order_relaxed); }

private:
    const uint64_t serial_;
    ze_driver_handle_t driver_;
    ze_device_handle_t device_;
    ze_context_handle_t context_;
    bool ownsContext_ = false;
    std::string deviceName_;
    uint64_t maxMemAllocSize_ = UINT64_MAX;
    ze_device_compute_properties_t compute_{};
    uint64_t timerResolutionNs_ = 1;
    uint32_t kernelTimestampValidBits_ = 64;
    uint32_t computeOrdinal_ = 0;
    uint32_t spirvVersion_ = 0x00010200;
    std::string featureOptions_;
    bool buildLogsReadable_ = false;
    std::unique_ptr<EventPool> events_;
    std::once_flag timestampEventsOnce_;
    std::unique_ptr<EventPool> timestampEvents_;
    std::atomic<EventPool *> timestampPool_{nullptr}; // timestampEvents_ once made, for poolOf
    ze_event_handle_t probeEvent_ = nullptr; // from events_, never released
    std::unique_ptr<KernelCache> kernels_;
    UsmRanges usmRanges_;
    std::atomic<size_t> children_{0};
};

// RAII registration of a child object with its engine.
class EngineChild {
public:
    explicit EngineChild(Engine *engine) : engine_(engine) { engine_->attach(); }
    ~EngineChild() { engine_->detach(); }
    EngineChild(const EngineChild &) = delete;
    EngineChild &operator=(const EngineChild &) = delete;
    Engine *engine() const { return engine_; }

private:
    Engine *engine_;
};

} // namespace imex_l0
