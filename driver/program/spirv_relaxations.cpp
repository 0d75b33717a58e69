#include "spirv_relaxations.hpp"

#include "spirv_words.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_set>

namespace ze_driver {
namespace detail {

namespace {

// Opcodes and enumerants from the SPIR-V specification.
constexpr uint16_t OpExtension = 10;
constexpr uint16_t OpEntryPoint = 15;
constexpr uint16_t OpCapability = 17;
constexpr uint16_t OpFunction = 54;
constexpr uint16_t OpFunctionEnd = 56;
constexpr uint16_t OpVariable = 59;
constexpr uint32_t kCapabilityLinkage = 5;
constexpr uint32_t kStorageClassFunction = 7;
constexpr uint32_t kVersion1_4 = 0x00010400;

// Words taken by a literal string starting at `at` (up to and including the
// word that holds its NUL), or 0 if it is not terminated before `end`.
size_t stringWords(const std::vector<uint32_t> &words, size_t at, size_t end) {
    for (size_t i = at; i < end; ++i) {
        uint32_t w = words[i];
        if ((w & 0xff) == 0 || (w & 0xff00) == 0 || (w & 0xff0000) == 0 || (w & 0xff000000) == 0)
            return i - at + 1;
    }
    return 0;
}

std::vector<uint32_t> encodeString(const std::string &text) {
    std::vector<uint32_t> encoded(text.size() / 4 + 1, 0);
    std::memcpy(encoded.data(), text.data(), text.size());
    return encoded;
}

bool declaresExtension(const std::vector<uint32_t> &words,
                       const std::vector<SpirvInstruction> &list, const std::string &name) {
    std::vector<uint32_t> encoded = encodeString(name);
    for (const SpirvInstruction &inst : list)
        if (inst.opcode == OpExtension && inst.size == encoded.size() + 1 &&
            std::equal(encoded.begin(), encoded.end(), words.begin() + inst.at + 1))
            return true;
    return false;
}

} // namespace

void repairBeforeValidation(std::vector<uint32_t> &words, std::string *log) {
    if (words.size() < kSpirvHeaderWords || words[1] < kVersion1_4)
        return;
    std::vector<SpirvInstruction> list = spirvInstructions(words);
    std::vector<uint32_t> globals;
    bool inFunction = false;
    for (const SpirvInstruction &inst : list) {
        if (inst.opcode == OpFunction)
            inFunction = true;
        else if (inst.opcode == OpFunctionEnd)
            inFunction = false;
        else if (inst.opcode == OpVariable && !inFunction && inst.size >= 4 &&
                 words[inst.at + 3] != kStorageClassFunction)
            globals.push_back(words[inst.at + 2]);
    }
    if (globals.empty())
        return;

    std::vector<uint32_t> repaired(words.begin(), words.begin() + kSpirvHeaderWords);
    size_t added = 0;
    for (const SpirvInstruction &inst : list) {
        auto begin = words.begin() + inst.at, end = begin + inst.size;
        size_t name = inst.opcode == OpEntryPoint && inst.size >= 4
                          ? stringWords(words, inst.at + 3, inst.at + inst.size)
                          : 0;
        if (name == 0) {
            repaired.insert(repaired.end(), begin, end);
            continue;
        }
        std::unordered_set<uint32_t> listed(begin + 3 + name, end);
        std::vector<uint32_t> entry(begin, end);
        for (uint32_t id : globals)
            if (listed.count(id) == 0 && entry.size() < 0xffff) {
                entry.push_back(id);
                ++added;
            }
        entry[0] = (static_cast<uint32_t>(entry.size()) << 16) | OpEntryPoint;
        repaired.insert(repaired.end(), entry.begin(), entry.end());
    }
    if (added == 0)
        return;
    words = std::move(repaired);
    *log += "note: added " + std::to_string(added) +
            " global variable(s) to entry-point interface lists, which SPIR-V 1.4 requires to "
            "list every global the entry point uses\n";
}

bool addExtensionTheValidatorAsksFor(std::vector<uint32_t> &words, const std::string &error,
                                     std::string *log) {
    static const char kAsk[] = "requires one of these extensions: ";
    size_t from = error.find(kAsk);
    if (from == std::string::npos)
        return false;
    from += sizeof(kAsk) - 1;
    size_t to = from;
    while (to < error.size() &&
           (std::isalnum(static_cast<unsigned char>(error[to])) || error[to] == '_'))
        ++to;
    std::string extension = error.substr(from, to - from);
    std::vector<SpirvInstruction> list = spirvInstructions(words);
    if (extension.empty() || list.empty() || declaresExtension(words, list, extension))
        return false;
    // After the last capability: extensions follow capabilities.
    size_t at = kSpirvHeaderWords;
    for (const SpirvInstruction &inst : list)
        if (inst.opcode == OpCapability)
            at = inst.at + inst.size;
    std::vector<uint32_t> instruction = encodeString(extension);
    instruction.insert(instruction.begin(),
                       (static_cast<uint32_t>(instruction.size() + 1) << 16) | OpExtension);
    words.insert(words.begin() + at, instruction.begin(), instruction.end());
    *log += "note: the module uses " + extension + " without declaring it (OpExtension); " +
            "it is read as if declared\n";
    return true;
}

std::vector<uint32_t> validatorView(const std::vector<uint32_t> &words) {
    std::vector<SpirvInstruction> list = spirvInstructions(words);
    for (const SpirvInstruction &inst : list)
        if (inst.opcode == OpEntryPoint || (inst.opcode == OpCapability && inst.size == 2 &&
                                            words[inst.at + 1] == kCapabilityLinkage))
            return words;
    if (list.empty())
        return words;
    std::vector<uint32_t> view(words);
    const uint32_t linkage[] = {(2u << 16) | OpCapability, kCapabilityLinkage};
    view.insert(view.begin() + kSpirvHeaderWords, std::begin(linkage), std::end(linkage));
    return view;
}

} // namespace detail
} // namespace ze_driver
