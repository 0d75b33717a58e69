#include "memory/usm_ranges.hpp"

#include <mutex>

namespace imex_l0 {

bool UsmRanges::contains(const void *ptr) const {
    const auto p = reinterpret_cast<uintptr_t>(ptr);
    std::shared_lock<std::shared_mutex> lock(mutex_);
    auto it = ends_.upper_bound(p); // the first range starting after p
    if (it == ends_.begin())
        return false;
    --it;
    return p < it->second;
}

void UsmRanges::add(const void *base, size_t size) {
    const auto b = reinterpret_cast<uintptr_t>(base);
    std::unique_lock<std::shared_mutex> lock(mutex_);
    if (ends_.size() >= kMaxRanges)
        ends_.clear();
    ends_[b] = b + size;
}

void UsmRanges::remove(const void *base) {
    std::unique_lock<std::shared_mutex> lock(mutex_);
    ends_.erase(reinterpret_cast<uintptr_t>(base));
}

} // namespace imex_l0
