// The process-wide in-memory cache of build results: a bounded LRU plus the
// set of builds in flight, so identical concurrent compiles build once and
// every caller gets the same result.
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "compiler.hpp"

namespace imex_l0::compiler {

class MemoryCache {
public:
    using Result = std::shared_ptr<const CompileResult>;

    // Bounded by both: entries, and bytes (keys, SPIR-V and logs); 0 entries
    // disables the cache.
    MemoryCache(size_t maxEntries, size_t maxBytes) : maxEntries_(maxEntries), maxBytes_(maxBytes) {}

    // Returns the cached result for key, or waits for an identical build in
    // flight, or runs build() (outside the lock) and caches its result when
    // it is reproducible (compile errors too: a failing source is not
    // compiled again). *hit tells whether build() was not called here.
    // build() must not throw.
    Result getOrBuild(const std::string &key, const std::function<Result()> &build, bool *hit);

    size_t size() const;
    size_t bytes() const;

private:
    using Lru = std::list<std::pair<std::string, Result>>; // front = most recent
    static size_t bytesOf(const std::string &key, const CompileResult &result) {
        return key.size() + result.spirv.size() + result.log.size();
    }

    const size_t maxEntries_;
    const size_t maxBytes_;
    // Guards lru_, bytes_, index_ and inFlight_.
    mutable std::mutex mutex_;
    Lru lru_;
    size_t bytes_ = 0; // bytesOf every entry of lru_
    // Keys are the exact key material (not a digest of it): a lookup is one
    // std::hash plus one comparison, and two different builds never collide.
    // The views point at the keys stored in lru_'s nodes, which never move.
    std::unordered_map<std::string_view, Lru::iterator> index_;
    std::unordered_map<std::string, std::shared_future<Result>> inFlight_;
};

} // namespace imex_l0::compiler
