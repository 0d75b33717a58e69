// The driver object: one L0 driver per OpenCL platform that has at least one
// device with SVM. Built once by zeInit and never destroyed (the process may
// still be using handles while static destructors run).
#pragma once

#include "object.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ze_opencl {

class Context;
class Device;

class Driver : public Object {
public:
    static constexpr Tag kTag = Tag::Driver;

    Driver(cl_platform_id platform, std::string name);
    ~Driver();

    cl_platform_id platform() const { return platform_; }
    const std::string &name() const { return name_; }
    const std::vector<std::unique_ptr<Device>> &devices() const { return devices_; }
    void addDevice(std::unique_ptr<Device> device);
    bool owns(const Device *device) const;
    // The one OpenCL context over every device, shared by all L0 contexts of
    // the driver (see the README, "Contexts"). Made on first use; the caller
    // gets a reference of its own.
    cl_context retainClContext();

    // The driver's live contexts, so that memory allocated in one context
    // can be freed through another, as on Intel's driver.
    void addContext(Context *context);
    void removeContext(Context *context);
    // Whether `act` returns true for some live context of the driver (tried
    // in turn; a context being destroyed waits until this returns).
    bool anyContext(const std::function<bool(Context *)> &act);

private:
    cl_platform_id platform_;
    std::string name_;
    std::vector<std::unique_ptr<Device>> devices_;
    std::mutex clContextMutex_; // guards clContext_
    cl_context clContext_ = nullptr;
    std::mutex contextsMutex_; // guards contexts_
    std::vector<Context *> contexts_;
};

} // namespace ze_opencl
