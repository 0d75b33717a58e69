// Fences: signaled when the lists of an execution have completed.
#pragma once

#include "signal.hpp"

#include <memory>

namespace ze_driver {

class CommandQueue;

class Fence : public Object {
public:
    static constexpr Tag kTag = Tag::Fence;

    Fence(CommandQueue *queue, bool signaled);

    CommandQueue *queue() const { return queue_; }
    Signal &signal() { return *signal_; }

private:
    Ref<CommandQueue> queue_;
    std::shared_ptr<Signal> signal_; // shared with the backend's completion callbacks
};

} // namespace ze_driver
