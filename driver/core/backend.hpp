// What the driver's core asks of a backend. The core (this directory) holds
// the Level Zero object model, the entry points and their validation; a
// backend (../opencl, ../cuda) holds what runs the work. Each driver library
// compiles the core with one backend: the backend's `backend_native.hpp`
// (found on that library's include path) defines the native state the core's
// objects carry for it, so the core never names an OpenCL or CUDA type and
// no call between the two goes through a function pointer.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct _ze_mem_dditable_t;

namespace ze_driver {

class Context;
class Device;
class Driver;
class Kernel;
class Module;
struct Allocation;
class Image;
struct PixelFormat;
class Sampler;
struct PhysicalMemoryNative;
struct SpirvInput;
using SpirvProgram = std::vector<SpirvInput>;
enum class ArgKind;

// A device's properties as Level Zero reports them, found once by the
// backend's discovery. The core hands them out keeping each caller's
// structure header (stype, pNext).
struct DeviceInfo {
    ze_device_properties_t properties = {};
    ze_device_compute_properties_t compute = {};
    ze_device_module_properties_t module = {};
    ze_device_memory_properties_t memory = {};
    ze_device_memory_access_properties_t access = {};
    ze_device_cache_properties_t cache = {};
    ze_device_image_properties_t image = {};
    ze_command_queue_group_properties_t queueGroup = {};
    // The compute properties' limits as the launch checks use them.
    std::vector<uint32_t> subGroupSizes;
    // Whether kernels and copies reach any host memory (plain malloc), not
    // only the driver's allocations (sharedSystemAllocCapabilities).
    bool reachesSystemMemory = false;
};

namespace backend {

// "opencl" or "cuda": the driver's name in trace lines.
extern const char *const kName;

// Every driver the backend finds, each with at least one device; called once,
// by the first zeInit. Nothing found (no platform, no GPU, no library) is an
// empty list, never an error: the loader then goes on without this driver.
std::vector<std::unique_ptr<Driver>> discover();

// Whether the driver's memory can be shared between processes
// (zeMemGetIpcHandle).
bool memoryIpcSupported(const Driver *driver);

// A context's native state, made when the context is created and released
// after its last allocation.
void initContext(Context &context);
void finishContext(Context &context);

// USM of `size` bytes (checked against the device's limits already) at an
// address aligned to `alignment` (0 or a power of two): the allocation's
// base and native state (the core fills in the rest). `limits` is the
// allocation's device, or the driver's first for host memory and shared
// memory without a device. Failure throws; release, called by destructors
// too, never does.
Allocation allocate(Context &context, size_t size, size_t alignment, ze_memory_type_t type,
                    Device *limits);
void release(Context &context, const Allocation &allocation) noexcept;

// Builds `module` for its device from the application's input (SPIR-V
// modules, linked when several, each with the values of the specialization
// constants it declares; or this backend's native binary, the one input;
// `format` already checked), with the build flags: fills the module's
// native state and its kernels' metadata. Returns ZE_RESULT_SUCCESS or why
// it failed (for SPIR-V, INVALID_ARGUMENT means an input is not SPIR-V at
// all), with the build log in `log` either way.
ze_result_t buildModule(Module &module, ze_module_format_t format, const SpirvProgram &inputs,
                        const std::string &flags, std::string *log);
// What zeModuleGetNativeBinary returns: what buildModule takes back as
// ZE_MODULE_FORMAT_NATIVE.
std::vector<uint8_t> nativeBinary(const Module &module);
// zeModuleGetGlobalPointer: the device address and size of the module's
// program-scope variable `name`; ZE_RESULT_ERROR_INVALID_GLOBAL_NAME when it
// has none of that name, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE where the
// backend cannot give one address for it.
ze_result_t globalPointer(Module &module, const char *name, size_t *size, void **pointer);

// Makes `kernel`'s native state (its module's kernel of its name); returns
// the most work-items a group of it may have.
size_t initKernel(Kernel &kernel);
// The kernel's local (shared) memory of its own and private memory per
// work-item, in bytes.
void kernelMemory(const Kernel &kernel, uint32_t *local, uint32_t *priv);
// The bytes an image or sampler argument passes for the application's
// handle (ArgKind::Image or Sampler).
std::vector<uint8_t> objectArgument(ArgKind kind, void *handle);

// Images and samplers (image.hpp), whose descriptions, formats and regions
// the core checks. Whether `device` holds images of `type` in `format`; the
// native state of an image (its pixels) and of a sampler, made once the
// core has checked the description (failures throw) and released by
// destructors (never throwing). The Queue runs the image commands
// (Command::Type::ImageCopy, ImageToMemory, ImageFromMemory).
bool imageSupported(Device &device, ze_image_type_t type, const PixelFormat &format);
void initImage(Image &image);
void finishImage(Image &image) noexcept;
void initSampler(Sampler &sampler);
void finishSampler(Sampler &sampler) noexcept;

// The entries of the Mem table that are the backend's own (memory IPC),
// after the core filled in its entries.
void completeMemTable(_ze_mem_dditable_t *table);

// Whether `device` was lost: a kernel fault (an illegal address, a trap)
// left it unable to run anything more in this process. Every wait on its
// work, every synchronization and every later append then fails with
// ZE_RESULT_ERROR_DEVICE_LOST, as do zeDeviceGetStatus and
// zeContextGetStatus. A backend whose kernels run in the host process (PoCL's
// CPU device) never loses its device: a faulting kernel faults the process.
bool deviceLost(Device &device);

// Whether kernels and copies on `device` reach memory allocated for `peer`,
// a device of the same driver (zeDeviceCanAccessPeer; the device itself is
// its own peer).
bool peerAccess(Device &device, Device &peer);

// Physical and virtual memory (virtual_memory.hpp), whose books the core
// keeps and checks: every address, size and offset passed here is a whole
// number of pages of virtualPageSize, within a reservation or a physical
// memory. Failures throw; freeAddresses, called by destructors too, never does.
//
// The granularity of the context's reservations, mappings and physical memory.
size_t virtualPageSize(Context &context);
// Whether `device` has physical memory, and its kernels and copies reach
// mapped ranges (ZE_RESULT_ERROR_UNSUPPORTED_FEATURE otherwise).
bool virtualMemorySupported(Device &device);
std::shared_ptr<PhysicalMemoryNative> createPhysicalMemory(Context &context, Device &device,
                                                           size_t size);
// Addresses nothing is mapped at, at `hint` if they are free there.
void *reserveAddresses(Context &context, const void *hint, size_t size);
void freeAddresses(Context &context, void *base, size_t size) noexcept;
// Maps [offset, offset + size) of `memory` at `at`, where nothing is mapped.
void mapAddresses(Context &context, void *at, size_t size, const PhysicalMemoryNative &memory,
                  size_t offset, ze_memory_access_attribute_t access);
// Unmaps part or all of what one mapping mapped.
void unmapAddresses(Context &context, void *at, size_t size);
// Gives the pages mapped at `at`, from `offset` of `memory`, the attribute `access`.
void protectAddresses(Context &context, void *at, size_t size, const PhysicalMemoryNative &memory,
                      size_t offset, ze_memory_access_attribute_t access);

// The address of the backend's own extension function `name`
// (zeDriverGetExtensionFunctionAddress), or null.
void *extensionFunction(const char *name);

// Whether event pools can be shared between processes (ZE_EVENT_POOL_FLAG_IPC:
// their states are words of a memory file, event_ipc.hpp, which the
// backend's Signal must take as the truth, Signal::shareState).
bool eventPoolIpcSupported();

// Besides this file, a backend provides, on the library's include path:
// backend_native.hpp (DriverNative, DeviceNative, ContextNative,
// AllocationNative, PhysicalMemoryNative, ImageNative, SamplerNative, ModuleNative, KernelNative), signal.hpp (class Signal: the two-state
// completion object behind events and fences, made with Signal(Context *,
// bool timestamps): set, reset, isSet, waitFor, timestamps, shareState) and queue.hpp (class Queue: an in-order queue of a device,
// made with Queue(Context *, Device *): enqueue(const Command &),
// launch(Kernel *, const ze_group_count_t &, Event *signal, waits) with the
// kernel's current values (immediate lists), flush, finish,
// signalWhenDone(Signal &, Signal *also)).

} // namespace backend

} // namespace ze_driver
