#include "memory_cache.hpp"

namespace imex_l0::compiler {

MemoryCache::Result MemoryCache::getOrBuild(const std::string &key,
                                            const std::function<Result()> &build, bool *hit) {
    std::promise<Result> promise;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        auto found = index_.find(key);
        if (found != index_.end()) {
            lru_.splice(lru_.begin(), lru_, found->second);
            *hit = true;
            return found->second->second;
        }
        auto pending = inFlight_.find(key);
        if (pending != inFlight_.end()) {
            std::shared_future<Result> future = pending->second;
            lock.unlock();
            *hit = true;
            return future.get();
        }
        inFlight_.emplace(key, promise.get_future().share());
    }
    *hit = false;
    Result result = build();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (result && result->reproducible && maxEntries_ > 0 &&
            bytesOf(key, *result) <= maxBytes_ && index_.find(key) == index_.end()) {
            lru_.emplace_front(key, result);
            index_.emplace(std::string_view(lru_.front().first), lru_.begin());
            bytes_ += bytesOf(key, *result);
            while (lru_.size() > maxEntries_ || bytes_ > maxBytes_) {
                bytes_ -= bytesOf(lru_.back().first, *lru_.back().second);
                index_.erase(std::string_view(lru_.back().first));
                lru_.pop_back();
            }
        }
        inFlight_.erase(key);
    }
    promise.set_value(result);
    return result;
}

size_t MemoryCache::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lru_.size();
}

size_t MemoryCache::bytes() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return bytes_;
}

} // namespace imex_l0::compiler
