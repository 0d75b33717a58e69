// The OpenCL backend's Queue (../core/backend.hpp): an in-order OpenCL queue
// of a device, onto which commands become OpenCL work (queue.cpp).
#pragma once

#include "backend_native.hpp"
#include "command.hpp"

#include <vector>

namespace ze_driver {

class Context;
class Device;
class Event;
class Kernel;
class Signal;

class Queue {
public:
    Queue(Context *context, Device *device);
    // Without waiting for the work (see queue.cpp).
    ~Queue();
    Queue(const Queue &) = delete;
    Queue &operator=(const Queue &) = delete;

    // Waits, the work, then the signal.
    void enqueue(const Command &command);
    // A launch with the kernel's current arguments, without a Command: what
    // immediate lists launch with.
    void launch(Kernel *kernel, const ze_group_count_t &groups, Event *signal,
                const std::vector<Event *> &waits);
    void flush();
    void finish();
    // Sets `signal` (and `also`, unless null) once everything enqueued so far
    // has completed.
    void signalWhenDone(Signal &signal, Signal *also);

private:
    cl_command_queue queue_ = nullptr;
};

} // namespace ze_driver
