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
constexpr uint16_t OpName = 5;
constexpr uint16_t OpExtension = 10;
constexpr uint16_t OpEntryPoint = 15;
constexpr uint16_t OpCapability = 17;
constexpr uint16_t OpFunction = 54;
constexpr uint16_t OpFunctionEnd = 56;
constexpr uint16_t OpVariable = 59;
constexpr uint16_t OpLoad = 61;
constexpr uint16_t OpStore = 62;
constexpr uint16_t OpCopyMemory = 63;
constexpr uint16_t OpCopyMemorySized = 64;
constexpr uint16_t OpDecorate = 71;
constexpr uint16_t OpDecorateId = 332;
constexpr uint16_t OpAliasDomainDeclINTEL = 5911;
constexpr uint16_t OpAliasScopeDeclINTEL = 5912;
constexpr uint16_t OpAliasScopeListDeclINTEL = 5913;
constexpr uint32_t kCapabilityMemoryAccessAliasingINTEL = 5910;
constexpr uint32_t kDecorationAliasScopeINTEL = 5914;
constexpr uint32_t kDecorationNoAliasINTEL = 5915;
// Memory operands: the bits followed by one operand word, in bit order.
constexpr uint32_t kMemoryAligned = 0x2, kMemoryMakePointerAvailable = 0x8,
                   kMemoryMakePointerVisible = 0x10, kMemoryAliasScopeINTEL = 0x10000,
                   kMemoryNoAliasINTEL = 0x20000;
// The bits without an operand.
constexpr uint32_t kMemoryVolatile = 0x1, kMemoryNontemporal = 0x4, kMemoryNonPrivatePointer = 0x20;
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

// One set of memory operands at `words[at]` (a mask, then its operands)
// without the aliasing bits and their operands, appended to `out`. Returns the
// words the set took, or 0 (nothing appended) for a mask with a bit this
// does not know the operands of.
size_t appendWithoutAliasing(const std::vector<uint32_t> &words, size_t at, size_t end,
                             std::vector<uint32_t> &out) {
    const uint32_t mask = words[at];
    constexpr uint32_t withOperand[] = {kMemoryAligned, kMemoryMakePointerAvailable,
                                        kMemoryMakePointerVisible, kMemoryAliasScopeINTEL,
                                        kMemoryNoAliasINTEL};
    constexpr uint32_t known = kMemoryAligned | kMemoryMakePointerAvailable |
                               kMemoryMakePointerVisible | kMemoryAliasScopeINTEL |
                               kMemoryNoAliasINTEL | kMemoryVolatile | kMemoryNontemporal |
                               kMemoryNonPrivatePointer;
    if ((mask & ~known) != 0)
        return 0;
    std::vector<uint32_t> kept = {mask & ~(kMemoryAliasScopeINTEL | kMemoryNoAliasINTEL)};
    size_t next = at + 1;
    for (uint32_t bit : withOperand) {
        if ((mask & bit) == 0)
            continue;
        if (next >= end)
            return 0;
        if (bit != kMemoryAliasScopeINTEL && bit != kMemoryNoAliasINTEL)
            kept.push_back(words[next]);
        ++next;
    }
    out.insert(out.end(), kept.begin(), kept.end());
    return next - at;
}

// Where an instruction's (first) memory operands start, or 0 if it has none.
size_t memoryOperandsAt(uint16_t opcode) {
    switch (opcode) {
    case OpLoad:
    case OpCopyMemorySized:
        return 4;
    case OpStore:
    case OpCopyMemory:
        return 3;
    default:
        return 0;
    }
}

// SPV_INTEL_memory_access_aliasing's scopes are hints for the optimiser
// (LLVM's alias.scope and noalias metadata): dropping them keeps the code's
// meaning. SPIRV-Tools 2023.1 rejects the module-scope declarations the
// extension defines, so they go, with every use: the capability, the
// extension, the declarations and names of them, the decorations and the
// memory-operand bits naming them. A module with a use this cannot take
// apart is left as it is, for the validator to reject.
void dropMemoryAliasingHints(std::vector<uint32_t> &words, std::string *log) {
    std::vector<SpirvInstruction> list = spirvInstructions(words);
    bool declared = false;
    for (const SpirvInstruction &inst : list)
        if (inst.opcode == OpCapability && inst.size == 2 &&
            words[inst.at + 1] == kCapabilityMemoryAccessAliasingINTEL)
            declared = true;
    if (!declared)
        return;
    std::unordered_set<uint32_t> scopes; // the declarations' result ids
    for (const SpirvInstruction &inst : list)
        if ((inst.opcode == OpAliasDomainDeclINTEL || inst.opcode == OpAliasScopeDeclINTEL ||
             inst.opcode == OpAliasScopeListDeclINTEL) &&
            inst.size >= 2)
            scopes.insert(words[inst.at + 1]);
    const std::vector<uint32_t> extension = encodeString("SPV_INTEL_memory_access_aliasing");
    std::vector<uint32_t> kept(words.begin(), words.begin() + kSpirvHeaderWords);
    for (const SpirvInstruction &inst : list) {
        const uint32_t *w = &words[inst.at];
        const uint16_t op = inst.opcode;
        if ((op == OpCapability && inst.size == 2 &&
             w[1] == kCapabilityMemoryAccessAliasingINTEL) ||
            (op == OpExtension && inst.size == extension.size() + 1 &&
             std::equal(extension.begin(), extension.end(), w + 1)) ||
            op == OpAliasDomainDeclINTEL || op == OpAliasScopeDeclINTEL ||
            op == OpAliasScopeListDeclINTEL ||
            ((op == OpDecorate || op == OpDecorateId) && inst.size >= 3 &&
             (w[2] == kDecorationAliasScopeINTEL || w[2] == kDecorationNoAliasINTEL)) ||
            (op == OpName && inst.size >= 2 && scopes.count(w[1]) != 0))
            continue;
        const size_t operands = memoryOperandsAt(op);
        if (operands == 0 || inst.size <= operands) {
            kept.insert(kept.end(), w, w + inst.size);
            continue;
        }
        // The operands before the memory operands, then each set of them
        // (OpCopyMemory and OpCopyMemorySized may have two).
        const size_t start = kept.size();
        kept.insert(kept.end(), w, w + operands);
        const size_t end = inst.at + inst.size;
        for (size_t at = inst.at + operands; at < end;) {
            size_t taken = appendWithoutAliasing(words, at, end, kept);
            if (taken == 0)
                return;
            at += taken;
        }
        kept[start] = (static_cast<uint32_t>(kept.size() - start) << 16) | op;
    }
    words = std::move(kept);
    *log += "note: SPV_INTEL_memory_access_aliasing's alias scopes (optimisation hints) are "
            "left out\n";
}

// SPIR-V 1.4 and later: every entry point's interface list gets the module's
// global variables it lacks.
void listGlobalsInInterfaces(std::vector<uint32_t> &words, std::string *log) {
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

} // namespace

void repairBeforeValidation(std::vector<uint32_t> &words, std::string *log) {
    dropMemoryAliasingHints(words, log);
    listGlobalsInInterfaces(words, log);
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
