// Event pools shared between processes (ZE_EVENT_POOL_FLAG_IPC): the state of
// each event is a word in a memory file (Signal::shareState) that the pool's
// process creates and another process maps with zeEventPoolOpenIpcHandle.
// The handle names the file as memory IPC handles do (ipc.cpp): its
// descriptor first, then its process and identity. Their table entries are
// set in event.cpp.
#pragma once

#include "host_pages.hpp"
#include "object.hpp"

#include <atomic>
#include <memory>

namespace ze_driver {

class SharedEventStates {
public:
    // A new memory file of `count` words, all 0 (unsignaled).
    explicit SharedEventStates(uint32_t count);
    // The words of another process's pool.
    SharedEventStates(const host_pages::SharedFile &file, uint32_t count);
    ~SharedEventStates();
    SharedEventStates(const SharedEventStates &) = delete;
    SharedEventStates &operator=(const SharedEventStates &) = delete;

    uint32_t count() const { return count_; }
    // The file's descriptor in the process that created it, -1 elsewhere.
    int fd() const { return fd_; }
    std::atomic<uint32_t> *word(uint32_t index) const { return words_ + index; }

private:
    uint32_t count_;
    size_t bytes_;
    int fd_ = -1;
    std::atomic<uint32_t> *words_ = nullptr;
};

ze_result_t ZE_APICALL zeEventPoolGetIpcHandle(ze_event_pool_handle_t hEventPool,
                                               ze_ipc_event_pool_handle_t *phIpc);
ze_result_t ZE_APICALL zeEventPoolOpenIpcHandle(ze_context_handle_t hContext,
                                                ze_ipc_event_pool_handle_t hIpc,
                                                ze_event_pool_handle_t *phEventPool);
ze_result_t ZE_APICALL zeEventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool);

} // namespace ze_driver
