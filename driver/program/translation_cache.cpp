#include "translation_cache.hpp"

#include <list>
#include <mutex>
#include <unordered_map>

namespace ze_driver {
namespace detail {

namespace {

struct Cache {
    // The keys (those of `entries`, which do not move), most recently used first.
    using Order = std::list<const std::string *>;
    struct Entry {
        std::shared_ptr<const CachedTranslation> translation;
        Order::iterator position;
        size_t bytes = 0;
    };
    std::mutex mutex; // guards everything below
    Order order;
    std::unordered_map<std::string, Entry> entries;
    size_t bytes = 0;
};

Cache &cache() {
    // Never destroyed: modules may be created while static destructors run.
    static Cache *instance = new Cache;
    return *instance;
}

} // namespace

std::string translationKey(const SpirvProgram &program) {
    std::string key;
    // Each part behind its length, so that no two programs share a key.
    auto append = [&key](const void *bytes, size_t size) {
        key.append(reinterpret_cast<const char *>(&size), sizeof(size));
        key.append(static_cast<const char *>(bytes), size);
    };
    for (const SpirvInput &input : program) {
        append(input.spirv, input.size);
        std::string constants;
        for (const SpecConstant &c : input.specConstants) {
            constants.append(reinterpret_cast<const char *>(&c.id), sizeof(c.id));
            constants.append(reinterpret_cast<const char *>(&c.value), sizeof(c.value));
        }
        append(constants.data(), constants.size());
    }
    return key;
}

std::shared_ptr<const CachedTranslation> findTranslation(const std::string &key) {
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto it = c.entries.find(key);
    if (it == c.entries.end())
        return nullptr;
    c.order.splice(c.order.begin(), c.order, it->second.position);
    return it->second.translation;
}

void keepTranslation(std::string key, std::shared_ptr<const CachedTranslation> translation) {
    size_t bytes = key.size() + translation->module.bitcode.size() + translation->log.size();
    if (bytes > kTranslationCacheBytes)
        return;
    Cache &c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.entries.count(key) != 0)
        return; // another thread translated the same module meanwhile
    while (c.bytes + bytes > kTranslationCacheBytes) {
        auto last = c.entries.find(*c.order.back());
        c.bytes -= last->second.bytes;
        c.order.pop_back();
        c.entries.erase(last);
    }
    auto it =
        c.entries.emplace(std::move(key), Cache::Entry{std::move(translation), {}, bytes}).first;
    try {
        c.order.push_front(&it->first);
    } catch (...) {
        c.entries.erase(it);
        throw;
    }
    it->second.position = c.order.begin();
    c.bytes += bytes;
}

} // namespace detail
} // namespace ze_driver
