// A SPIR-V module's instructions found in its words, for the driver's small
// scans of modules that have not been validated yet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ze_driver {
namespace detail {

constexpr size_t kSpirvHeaderWords = 5;

struct SpirvInstruction {
    size_t at; // index of its first word
    uint16_t opcode;
    uint16_t size; // in words
};

// The instructions after the header; empty when a word count is 0 or runs
// past the end (the validator reports such a module).
inline std::vector<SpirvInstruction> spirvInstructions(const std::vector<uint32_t> &words) {
    std::vector<SpirvInstruction> list;
    for (size_t at = kSpirvHeaderWords; at < words.size();) {
        auto size = static_cast<uint16_t>(words[at] >> 16);
        if (size == 0 || at + size > words.size())
            return {};
        list.push_back({at, static_cast<uint16_t>(words[at] & 0xffff), size});
        at += size;
    }
    return list;
}

} // namespace detail
} // namespace ze_driver
