// Ranges of addresses kept in a map from their start: USM allocations,
// reservations of virtual memory and what is mapped into them.
#pragma once

#include <cstdint>
#include <iterator>

namespace ze_driver {

// The first entry of `ranges` (start address -> a value with a `size`, the
// ranges not overlapping) whose range ends after `address`: the one holding
// it, or else the next one; ranges.end() when there is none.
template <class Map> auto firstReaching(Map &ranges, uintptr_t address) {
    auto it = ranges.upper_bound(address);
    if (it != ranges.begin() && address - std::prev(it)->first < std::prev(it)->second.size)
        --it;
    return it;
}

// The entry of `ranges` whose range [start, start + size) holds `address`,
// or ranges.end().
template <class Map> auto rangeHolding(Map &ranges, uintptr_t address) {
    auto it = firstReaching(ranges, address);
    return it != ranges.end() && it->first <= address ? it : ranges.end();
}

} // namespace ze_driver
