#include "event_ipc.hpp"

#include "context.hpp"
#include "event.hpp"

#include <cstring>

namespace ze_driver {

namespace {

// What an event pool IPC handle carries: the memory file (first, see
// host_pages::SharedFile) and the pool's size and flags.
struct PoolHandle {
    host_pages::SharedFile file;
    uint32_t count;
    uint32_t flags; // the pool's ze_event_pool_flags_t
    uint32_t magic;
};
static_assert(sizeof(PoolHandle) <= ZE_MAX_IPC_HANDLE_SIZE, "fits an IPC handle");
constexpr uint32_t kMagic = 0x49504345; // "IPCE"

size_t wordBytes(uint32_t count) {
    size_t page = host_pages::pageSize();
    return (count * sizeof(uint32_t) + page - 1) / page * page;
}

} // namespace

// Zeroed host pages, backed by a memory file as exported USM is.
SharedEventStates::SharedEventStates(uint32_t count) : count_(count), bytes_(wordBytes(count)) {
    void *pages = host_pages::allocate(bytes_, host_pages::pageSize());
    try {
        fd_ = host_pages::share(pages, bytes_);
    } catch (...) {
        host_pages::release(pages, bytes_, -1);
        throw;
    }
    words_ = static_cast<std::atomic<uint32_t> *>(pages);
}

SharedEventStates::SharedEventStates(const host_pages::SharedFile &file, uint32_t count)
    : count_(count), bytes_(wordBytes(count)) {
    words_ = static_cast<std::atomic<uint32_t> *>(host_pages::open(file, 0, bytes_));
}

SharedEventStates::~SharedEventStates() {
    host_pages::release(words_, bytes_, fd_);
}

ze_result_t ZE_APICALL zeEventPoolGetIpcHandle(ze_event_pool_handle_t hEventPool,
                                               ze_ipc_event_pool_handle_t *phIpc) {
    return boundary(__func__, [&] {
        EventPool *pool = fromHandle<EventPool>(hEventPool);
        notNull(phIpc);
        // Only pools created with ZE_EVENT_POOL_FLAG_IPC have shared states;
        // a pool opened from a handle is shared again by that handle.
        const std::shared_ptr<SharedEventStates> &states = pool->sharedStates();
        check(states != nullptr && states->fd() >= 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        PoolHandle h = {};
        h.file = host_pages::identify(states->fd());
        h.count = states->count();
        h.flags = pool->flags();
        h.magic = kMagic;
        std::memset(phIpc->data, 0, sizeof(phIpc->data));
        std::memcpy(phIpc->data, &h, sizeof(h));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeEventPoolOpenIpcHandle(ze_context_handle_t hContext,
                                                ze_ipc_event_pool_handle_t hIpc,
                                                ze_event_pool_handle_t *phEventPool) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(phEventPool);
        PoolHandle h;
        std::memcpy(&h, hIpc.data, sizeof(h));
        check(h.magic == kMagic && h.count > 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        auto states = std::make_shared<SharedEventStates>(h.file, h.count);
        auto pool = std::make_unique<EventPool>(context, h.flags, h.count, std::move(states));
        *phEventPool = toHandle<EventPool, ze_event_pool_handle_t>(pool.release());
        return ZE_RESULT_SUCCESS;
    });
}

// The events of the pool go with it; the words stay mapped while any of
// them lives.
ze_result_t ZE_APICALL zeEventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool) {
    return boundary(__func__, [&] {
        delete fromHandle<EventPool>(hEventPool);
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace ze_driver
