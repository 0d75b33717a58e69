// The driver object: one L0 driver per platform its backend finds (an OpenCL
// platform with SVM devices; CUDA's devices), with the backend's state of it
// (DriverNative, the backend's backend_native.hpp). Built once by zeInit and
// never destroyed (the process may still be using handles while static
// destructors run).
#pragma once

#include "backend_native.hpp"
#include "object.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ze_driver {

class Context;
class Device;

class Driver : public Object {
public:
    static constexpr Tag kTag = Tag::Driver;

    explicit Driver(std::string name);
    ~Driver();

    const std::string &name() const { return name_; }
    DriverNative &native() { return native_; }
    const std::vector<std::unique_ptr<Device>> &devices() const { return devices_; }
    void addDevice(std::unique_ptr<Device> device);
    bool owns(const Device *device) const;
    // The driver's live contexts, so that memory allocated in one context
    // can be freed through another, as on Intel's driver.
    void addContext(Context *context);
    void removeContext(Context *context);
    // Whether `act` returns true for some live context of the driver (tried
    // in turn; a context being destroyed waits until this returns).
    bool anyContext(const std::function<bool(Context *)> &act);

private:
    std::string name_;
    std::vector<std::unique_ptr<Device>> devices_;
    DriverNative native_;
    std::mutex contextsMutex_; // guards contexts_
    std::vector<Context *> contexts_;
};

} // namespace ze_driver
