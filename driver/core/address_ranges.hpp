// Ranges of addresses kept in a map from their start: USM allocations,
// reservations of virtual memory and what is mapped into them.
#pragma once

#include <cstdint>

namespace ze_driver {

// The entry of `ranges` (start address -> a value with a `size`) whose range
// [start, start + size) holds `address`, or ranges.end().
template <class Map> auto rangeHolding(Map &ranges, uintptr_t address) {
    auto it = ranges.upper_bound(address);
    if (it == ranges.begin())
        return ranges.end();
    --it;
    return address - it->first < it->second.size ? it : ranges.end();
}

} // namespace ze_driver
