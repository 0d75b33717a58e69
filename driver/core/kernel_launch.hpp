// What a launch takes from its kernel: the argument values, the group size
// and the global offset. A launch appended to a regular list keeps a
// snapshot of them, so later changes to the kernel do not affect it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ze_driver {

struct ArgValue {
    bool set = false;
    std::vector<uint8_t> bytes; // the value, or the pointer's 8 bytes
    size_t localSize = 0;       // local memory arguments

    bool operator==(const ArgValue &o) const {
        return set == o.set && localSize == o.localSize && bytes == o.bytes;
    }
};

struct KernelLaunch {
    std::vector<ArgValue> args;
    uint32_t groupSize[3] = {1, 1, 1};
    uint32_t offset[3] = {0, 0, 0};
};

} // namespace ze_driver
