#include "translator_limits.hpp"

#include <spirv-tools/libspirv.h>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace ze_driver {
namespace detail {

namespace {

// Opcodes and enumerants from the SPIR-V specification.
enum Opcode : uint16_t {
    OpName = 5,
    OpMemberName = 6,
    OpExtension = 10,
    OpEntryPoint = 15,
    OpConstant = 43,
    OpFunction = 54,
    OpVariable = 59,
    OpLoad = 61,
    OpAccessChain = 65,
    OpInBoundsAccessChain = 66,
    OpPtrAccessChain = 67,
    OpInBoundsPtrAccessChain = 70,
    OpDecorate = 71,
    OpMemberDecorate = 72,
    OpGroupDecorate = 74,
    OpGroupMemberDecorate = 75,
    OpDecorateId = 332,
    OpDecorateString = 5632,
    OpMemberDecorateString = 5633,
};
constexpr uint32_t kStorageClassInput = 1;
constexpr uint32_t kDecorationBuiltIn = 11;
constexpr uint32_t kDecorationFuncParamAttr = 38;
constexpr uint32_t kDecorationLinkageAttributes = 41;
constexpr uint32_t kLinkageExport = 0;
constexpr uint32_t kDecorationAlignment = 44;
constexpr uint32_t kMemoryAccessAligned = 0x2;
// Memory semantics bits 0-4: bit 0 is no order at all, bits 1-4 are
// Acquire, Release, AcquireRelease and SequentiallyConsistent.
constexpr uint32_t kMemoryOrderBits = 0x1f;

struct ModuleState {
    std::string error;                                     // the first finding is enough
    std::unordered_set<uint32_t> defined;                  // result ids seen so far
    std::unordered_set<uint32_t> inputs;                   // Input (built-in) variables
    std::unordered_map<uint32_t, uint32_t> constants;      // 32-bit OpConstant values
    std::unordered_map<std::string, uint32_t> entryPoints; // name -> function
    std::unordered_map<std::string, uint32_t> exports;     // linkage name -> function
    std::unordered_map<uint32_t, uint32_t> functionTypes;  // function -> OpTypeFunction
};

bool isPowerOfTwo(uint64_t value) {
    return value != 0 && (value & (value - 1)) == 0;
}

uint32_t word(const spv_parsed_instruction_t *inst, uint16_t operand) {
    return inst->words[inst->operands[operand].offset];
}

// The storage classes the translator maps to SPIR address spaces.
bool translatableStorageClass(uint32_t storageClass) {
    switch (storageClass) {
    case 0:    // UniformConstant
    case 1:    // Input
    case 4:    // Workgroup
    case 5:    // CrossWorkgroup
    case 7:    // Function
    case 8:    // Generic
    case 5936: // DeviceOnlyINTEL
    case 5937: // HostOnlyINTEL
        return true;
    default:
        return false;
    }
}

// The translator requires the bytes after a string's terminating NUL to be
// zero, as the specification says; the validator does not check them.
bool zeroPadded(const spv_parsed_instruction_t *inst, const spv_parsed_operand_t &operand) {
    const auto *begin = reinterpret_cast<const uint8_t *>(inst->words + operand.offset);
    const uint8_t *end = begin + operand.num_words * sizeof(uint32_t);
    const uint8_t *nul = std::find(begin, end, 0);
    return nul != end && std::all_of(nul, end, [](uint8_t b) { return b == 0; });
}

// The operands naming the ids an annotation (OpName, OpDecorate, ...)
// applies to; empty for other instructions.
std::vector<uint16_t> annotationTargets(const spv_parsed_instruction_t *inst) {
    std::vector<uint16_t> targets;
    switch (inst->opcode) {
    case OpName:
    case OpMemberName:
    case OpDecorate:
    case OpMemberDecorate:
    case OpDecorateId:
    case OpDecorateString:
    case OpMemberDecorateString:
        targets.push_back(0);
        break;
    case OpGroupDecorate: // group, then targets
        for (uint16_t i = 1; i < inst->num_operands; ++i)
            targets.push_back(i);
        break;
    case OpGroupMemberDecorate: // group, then (target, member) pairs
        for (uint16_t i = 1; i < inst->num_operands; i += 2)
            targets.push_back(i);
        break;
    default:
        break;
    }
    return targets;
}

// The translator rewrites a built-in variable through its loads and access
// chains (as the base pointer, after result type and id) and aborts on any
// other use.
bool builtInUseAllowed(const spv_parsed_instruction_t *inst, uint16_t operand) {
    switch (inst->opcode) {
    case OpLoad:
    case OpAccessChain:
    case OpInBoundsAccessChain:
    case OpPtrAccessChain:
    case OpInBoundsPtrAccessChain:
        return operand == 2;
    case OpEntryPoint:
        return true; // the interface list
    default:
        return false;
    }
}

std::string literalString(const spv_parsed_instruction_t *inst, uint16_t operand) {
    const auto *text = reinterpret_cast<const char *>(inst->words + inst->operands[operand].offset);
    size_t size = inst->operands[operand].num_words * sizeof(uint32_t);
    return std::string(text, std::find(text, text + size, '\0'));
}

// The translator ends the process on an extension it does not know
// ("input SPIR-V module uses unknown extension"); the validator lets any
// name through. Its list is the one it is built with.
bool knownExtension(const std::string &name) {
    static const std::unordered_set<std::string> known = {
#define EXT(X) #X,
#include <LLVMSPIRVLib/LLVMSPIRVExtensions.inc>
#undef EXT
    };
    return known.count(name) != 0;
}

bool fail(ModuleState *state, std::string reason) {
    state->error = std::move(reason);
    return false;
}

bool checkOperands(const spv_parsed_instruction_t *inst, ModuleState *state) {
    bool annotation = !annotationTargets(inst).empty();
    for (uint16_t i = 0; i < inst->num_operands; ++i) {
        const spv_parsed_operand_t &operand = inst->operands[i];
        uint32_t value = word(inst, i);
        switch (operand.type) {
        case SPV_OPERAND_TYPE_STORAGE_CLASS:
            if (!translatableStorageClass(value))
                return fail(state, "storage class " + std::to_string(value) +
                                       " has no OpenCL address space");
            break;
        case SPV_OPERAND_TYPE_LITERAL_STRING:
            if (!zeroPadded(inst, operand))
                return fail(state, "a literal string is not padded with zero bytes");
            break;
        case SPV_OPERAND_TYPE_MEMORY_ACCESS:
        case SPV_OPERAND_TYPE_OPTIONAL_MEMORY_ACCESS:
            // The alignment of an Aligned access is the operand after the
            // mask; the translator makes an llvm::Align of it.
            if ((value & kMemoryAccessAligned) && i + 1 < inst->num_operands &&
                !isPowerOfTwo(word(inst, i + 1)))
                return fail(state, "memory access alignment " + std::to_string(word(inst, i + 1)) +
                                       " is not a power of two");
            break;
        case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID: {
            // Translated through a table with one entry per memory order.
            auto constant = state->constants.find(value);
            uint32_t order =
                constant == state->constants.end() ? 0 : constant->second & kMemoryOrderBits;
            if (order != 0 && (order == 1 || !isPowerOfTwo(order)))
                return fail(state, "memory semantics " + std::to_string(constant->second) +
                                       " do not name one memory order");
            break;
        }
        case SPV_OPERAND_TYPE_ID:
            if (!annotation && state->inputs.count(value) && !builtInUseAllowed(inst, i))
                return fail(state, "built-in variable %" + std::to_string(value) +
                                       " is used other than by a load or an access chain");
            break;
        default:
            break;
        }
    }
    return true;
}

bool checkAnnotation(const spv_parsed_instruction_t *inst, ModuleState *state) {
    // The translator attaches names and decorations to ids it has not met
    // yet, and aborts on an id defined before them (an OpExtInstImport or an
    // OpString), which the specification allows.
    for (uint16_t target : annotationTargets(inst))
        if (state->defined.count(word(inst, target)))
            return fail(state, "%" + std::to_string(word(inst, target)) +
                                   " is named or decorated after its definition");

    uint16_t decoration = inst->opcode == OpDecorate ? 1 : inst->opcode == OpMemberDecorate ? 2 : 0;
    if (!decoration || decoration + 1 >= inst->num_operands)
        return true;
    uint32_t value = word(inst, decoration + 1);
    switch (word(inst, decoration)) {
    case kDecorationAlignment:
        if (!isPowerOfTwo(value))
            return fail(state,
                        "Alignment decoration " + std::to_string(value) + " is not a power of two");
        break;
    case kDecorationBuiltIn:
        // Only the OpenCL kernel built-ins, NumWorkgroups (24) to
        // SubgroupLocalInvocationId (41), have a translation.
        if (value < 24 || value > 41)
            return fail(state,
                        "BuiltIn " + std::to_string(value) + " is not an OpenCL kernel built-in");
        break;
    case kDecorationFuncParamAttr:
        // Translator 15 maps the attributes up to NoWrite (6), not NoReadWrite.
        if (value > 6)
            return fail(state, "FuncParamAttr " + std::to_string(value) +
                                   " is not supported by the translator");
        break;
    default:
        break;
    }
    return true;
}

spv_result_t checkInstruction(void *userData, const spv_parsed_instruction_t *inst) {
    auto *state = static_cast<ModuleState *>(userData);
    if (!checkOperands(inst, state) || !checkAnnotation(inst, state))
        return SPV_ERROR_INVALID_BINARY;
    if (inst->opcode == OpExtension && inst->num_operands > 0 &&
        !knownExtension(literalString(inst, 0))) {
        fail(state, "extension \"" + literalString(inst, 0) + "\" is unknown to the translator");
        return SPV_ERROR_INVALID_BINARY;
    }
    if (inst->opcode == OpEntryPoint && inst->num_operands > 2)
        state->entryPoints[literalString(inst, 2)] = word(inst, 1);
    if (inst->opcode == OpDecorate && inst->num_operands > 3 &&
        word(inst, 1) == kDecorationLinkageAttributes && word(inst, 3) == kLinkageExport)
        state->exports[literalString(inst, 2)] = word(inst, 0);
    if (inst->opcode == OpFunction && inst->num_operands > 3)
        state->functionTypes[inst->result_id] = word(inst, 3);
    if (inst->opcode == OpConstant && inst->num_operands == 3 && inst->operands[2].num_words == 1)
        state->constants[inst->result_id] = word(inst, 2);
    if (inst->opcode == OpVariable && inst->num_operands > 2 && word(inst, 2) == kStorageClassInput)
        state->inputs.insert(inst->result_id);
    if (inst->result_id)
        state->defined.insert(inst->result_id);
    return SPV_SUCCESS;
}

// An entry point may share its name with an exported function (the
// translator itself writes kernels that way: a wrapper entry point calling
// the exported body); reading back, the translator takes the exported
// function for the kernel's body and aborts if it has another signature.
bool checkEntryPointExports(ModuleState *state) {
    for (const auto &[name, entry] : state->entryPoints) {
        auto exported = state->exports.find(name);
        if (exported == state->exports.end() || exported->second == entry)
            continue;
        if (state->functionTypes[exported->second] != state->functionTypes[entry])
            return fail(state, "entry point \"" + name +
                                   "\" and the function exported under that name differ in type");
    }
    return true;
}

} // namespace

ze_result_t checkTranslatorLimits(const std::vector<uint32_t> &words, std::string *log) {
    spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_4);
    if (!context) {
        *log += "cannot create a SPIRV-Tools context\n";
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    ModuleState state;
    spv_diagnostic diagnostic = nullptr;
    spv_result_t status = spvBinaryParse(context, &state, words.data(), words.size(), nullptr,
                                         &checkInstruction, &diagnostic);
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    if (status == SPV_SUCCESS && !checkEntryPointExports(&state))
        status = SPV_ERROR_INVALID_BINARY;
    if (status == SPV_SUCCESS)
        return ZE_RESULT_SUCCESS;
    *log += "SPIR-V not supported by the translator: " +
            (state.error.empty() ? std::string("the module cannot be parsed") : state.error) + "\n";
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
}

} // namespace detail
} // namespace ze_driver
