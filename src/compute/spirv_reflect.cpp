#include "compute/spirv_reflect.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace imex_l0 {

namespace {

// The SPIR-V opcodes, storage classes and decorations this reader needs
// (numbers from the SPIR-V specification).
enum Op : uint32_t {
    OpMemoryModel = 14,
    OpEntryPoint = 15,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpTypeVector = 23,
    OpTypeArray = 28,
    OpTypeStruct = 30,
    OpTypePointer = 32,
    OpConstant = 43,
    OpFunction = 54,
    OpFunctionParameter = 55,
    OpFunctionEnd = 56,
    OpDecorate = 71,
};
enum StorageClass : uint32_t {
    UniformConstant = 0,
    Workgroup = 4,
    CrossWorkgroup = 5,
    Function = 7,
};
constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kExecutionModelKernel = 6;
constexpr uint32_t kDecorationCPacked = 10;
constexpr uint32_t kDecorationFuncParamAttr = 38;
constexpr uint32_t kParamAttrByVal = 2;
constexpr uint32_t kAddressingPhysical32 = 1;

struct Layout {
    size_t size = 0;
    size_t align = 1;
};

struct Type {
    uint32_t op = 0;
    std::vector<uint32_t> operands; // the instruction's words after the result id
};

class Reader {
public:
    Reader(const uint32_t *words, size_t count) : words_(words), count_(count) {}

    std::vector<SpirvKernel> run(std::string &problem) {
        if (count_ < 5 || words_[0] != kMagic) {
            problem = "not SPIR-V (missing the 0x07230203 magic number)";
            return {};
        }
        std::vector<std::pair<uint32_t, std::string>> entries;
        uint32_t currentFunction = 0;
        for (size_t at = 5; at < count_;) {
            uint32_t wordCount = words_[at] >> 16;
            uint32_t op = words_[at] & 0xffff;
            if (wordCount == 0 || at + wordCount > count_) {
                problem = "instruction at word " + std::to_string(at) + " runs past the end";
                return {};
            }
            const uint32_t *w = words_ + at;
            switch (op) {
            case OpMemoryModel:
                if (wordCount >= 2)
                    pointerSize_ = w[1] == kAddressingPhysical32 ? 4 : 8;
                break;
            case OpEntryPoint:
                if (wordCount >= 4 && w[1] == kExecutionModelKernel)
                    entries.emplace_back(w[2], literalString(w + 3, wordCount - 3));
                break;
            case OpDecorate:
                if (wordCount >= 3 && w[2] == kDecorationCPacked)
                    packed_.insert(w[1]);
                if (wordCount >= 4 && w[2] == kDecorationFuncParamAttr && w[3] == kParamAttrByVal)
                    byVal_.insert(w[1]);
                break;
            case OpTypeInt:
            case OpTypeFloat:
            case OpTypeVector:
            case OpTypeArray:
            case OpTypeStruct:
            case OpTypePointer:
                if (wordCount >= 2)
                    types_[w[1]] = Type{op, std::vector<uint32_t>(w + 2, w + wordCount)};
                break;
            case OpConstant:
                if (wordCount >= 4)
                    constants_[w[2]] = w[3];
                break;
            case OpFunction:
                if (wordCount >= 3)
                    currentFunction = w[2];
                break;
            case OpFunctionParameter:
                if (wordCount >= 3 && currentFunction)
                    params_[currentFunction].emplace_back(w[1], w[2]);
                break;
            case OpFunctionEnd:
                currentFunction = 0;
                break;
            default:
                break;
            }
            at += wordCount;
        }
        std::vector<SpirvKernel> kernels;
        for (auto &entry : entries) {
            SpirvKernel k;
            k.name = entry.second;
            for (auto &param : params_[entry.first])
                k.args.push_back(argOf(param.first, param.second));
            kernels.push_back(std::move(k));
        }
        return kernels;
    }

private:
    std::string literalString(const uint32_t *w, size_t words) const {
        const char *bytes = reinterpret_cast<const char *>(w);
        size_t max = words * 4;
        return std::string(bytes, strnlen(bytes, max));
    }

    SpirvArg argOf(uint32_t typeId, uint32_t paramId) {
        auto t = types_.find(typeId);
        if (t == types_.end() || t->second.op != OpTypePointer || t->second.operands.size() < 2)
            return {imex_l0_arg_kind_value, layout(typeId, 0).size};
        uint32_t storage = t->second.operands[0];
        switch (storage) {
        case CrossWorkgroup:
            return {imex_l0_arg_kind_global, pointerSize_};
        case UniformConstant:
            return {imex_l0_arg_kind_constant, pointerSize_};
        case Workgroup:
            return {imex_l0_arg_kind_local, 0};
        case Function:
            if (byVal_.count(paramId))
                return {imex_l0_arg_kind_value, layout(t->second.operands[1], 0).size};
            break;
        default:
            break;
        }
        // Other storage classes (Generic) behave like a global pointer.
        return {imex_l0_arg_kind_global, pointerSize_};
    }

    // C layout of a type as OpenCL lays out kernel arguments (natural
    // alignment; 3-component vectors take the room of 4; packed structs).
    // Memoized, and a type that contains itself (only in a malformed
    // module) lays out as empty: without both, a hostile module of nested
    // self-referencing structs would take exponential time.
    Layout layout(uint32_t id, int depth) {
        auto known = layouts_.find(id);
        if (known != layouts_.end())
            return known->second;
        if (depth > 64 || !visiting_.insert(id).second)
            return {};
        Layout l = computeLayout(id, depth);
        l.align = std::max<size_t>(l.align, 1); // a divisor below
        visiting_.erase(id);
        layouts_[id] = l;
        return l;
    }

    Layout computeLayout(uint32_t id, int depth) {
        auto t = types_.find(id);
        if (t == types_.end())
            return {};
        const Type &type = t->second;
        const auto &o = type.operands;
        switch (type.op) {
        case OpTypeInt:
        case OpTypeFloat: {
            size_t bytes = o.empty() ? 0 : o[0] / 8;
            return {bytes, std::max<size_t>(bytes, 1)};
        }
        case OpTypeVector: {
            if (o.size() < 2)
                return {};
            Layout element = layout(o[0], depth + 1);
            size_t n = o[1] == 3 ? 4 : o[1];
            return {element.size * n, element.size * n};
        }
        case OpTypeArray: {
            if (o.size() < 2)
                return {};
            Layout element = layout(o[0], depth + 1);
            auto length = constants_.find(o[1]);
            size_t n = length == constants_.end() ? 0 : length->second;
            return {element.size * n, element.align};
        }
        case OpTypeStruct: {
            bool isPacked = packed_.count(id) > 0;
            Layout result{0, 1};
            for (uint32_t member : o) {
                Layout m = layout(member, depth + 1);
                size_t align = isPacked ? 1 : m.align;
                result.size = (result.size + align - 1) / align * align + m.size;
                result.align = std::max(result.align, align);
            }
            result.size = (result.size + result.align - 1) / result.align * result.align;
            return result;
        }
        case OpTypePointer:
            return {pointerSize_, pointerSize_};
        default:
            return {};
        }
    }

    const uint32_t *words_;
    size_t count_;
    size_t pointerSize_ = 8;
    std::unordered_map<uint32_t, Type> types_;
    std::unordered_map<uint32_t, uint32_t> constants_;
    std::unordered_set<uint32_t> packed_;
    std::unordered_set<uint32_t> byVal_;
    std::unordered_map<uint32_t, Layout> layouts_;
    std::unordered_set<uint32_t> visiting_;
    std::unordered_map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> params_; // fn -> (type, id)
};

} // namespace

std::vector<SpirvKernel> reflectSpirv(const void *data, size_t size, std::string &problem) {
    problem.clear();
    if (!data || size % 4 != 0) {
        problem = "size " + std::to_string(size) + " is not a whole number of 32-bit words";
        return {};
    }
    // Copy into aligned words: the caller's buffer may be any byte address.
    std::vector<uint32_t> words(size / 4);
    if (size > 0)
        std::memcpy(words.data(), data, size);
    return Reader(words.data(), words.size()).run(problem);
}

} // namespace imex_l0
