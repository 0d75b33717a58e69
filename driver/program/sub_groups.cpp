#include "sub_groups.hpp"

#include "call_rewrite.hpp"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace ze_driver {
namespace detail {

namespace {

// A work-item builtin of the device library: size_t f(uint dimension).
llvm::Value *workItemQuery(llvm::IRBuilder<> &b, const char *mangled, unsigned dimension) {
    return callBuiltin(b, mangled, b.getInt64Ty(), {b.getInt32(dimension)});
}

llvm::Value *localSize(llvm::IRBuilder<> &b, unsigned d) {
    return workItemQuery(b, "_Z14get_local_sizej", d);
}
llvm::Value *localId(llvm::IRBuilder<> &b, unsigned d) {
    return workItemQuery(b, "_Z12get_local_idj", d);
}

// The single-work-item value of one call (nullptr for a call with no value,
// whose work is done here), or nothing for a call that is not a sub-group
// builtin this knows (left alone: the device compiler reports it).
std::optional<llvm::Value *> replacement(llvm::CallInst &call, llvm::StringRef name,
                                         llvm::StringRef params) {
    llvm::IRBuilder<> b(&call);
    llvm::Type *result = call.getType();
    auto asResult = [&](llvm::Value *v) { return b.CreateZExtOrTrunc(v, result); };

    if (name == "get_sub_group_size" || name == "get_max_sub_group_size")
        return llvm::ConstantInt::get(result, 1);
    if (name == "get_sub_group_local_id")
        return llvm::ConstantInt::get(result, 0);
    if (name == "get_num_sub_groups" || name == "get_enqueued_num_sub_groups")
        return asResult(
            b.CreateMul(b.CreateMul(localSize(b, 0), localSize(b, 1)), localSize(b, 2)));
    if (name == "get_sub_group_id") {
        llvm::Value *id = b.CreateAdd(localId(b, 1), b.CreateMul(localSize(b, 1), localId(b, 2)));
        id = b.CreateAdd(localId(b, 0), b.CreateMul(localSize(b, 0), id));
        return asResult(id);
    }
    if (name == "sub_group_barrier") {
        // A barrier of one work-item orders its memory accesses: a fence (an
        // LLVM one: the device library has no mem_fence, missing_builtins.hpp).
        b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
        return nullptr;
    }
    // Work-item i of a sub-group of size S moves element k of its value from
    // or to p[k * S + i]; here S is 1 and i 0.
    if (name.startswith("intel_sub_group_block_"))
        return intelBlockAccess(b, call, name.startswith("intel_sub_group_block_read"),
                                [&](unsigned k) { return b.getInt64(k); });
    if (call.arg_size() == 0 || call.getArgOperand(0)->getType() != result)
        return std::nullopt;
    // cl_intel_subgroups(_short)'s broadcast, reductions and scans are
    // cl_khr_subgroups' under another name (and for more types).
    if (name.startswith("intel_sub_group_") && !name.startswith("intel_sub_group_shuffle"))
        name = name.drop_front(std::strlen("intel_"));
    llvm::Value *x = call.getArgOperand(0);
    if (name == "sub_group_all" || name == "sub_group_any")
        return asResult(b.CreateICmpNE(x, llvm::Constant::getNullValue(x->getType())));
    if (name == "sub_group_broadcast" || name == "intel_sub_group_shuffle" ||
        name == "intel_sub_group_shuffle_xor")
        return x;
    // Intel's shuffles across two sub-groups' worth of values: with one
    // work-item, delta 0 is the current value and delta 1 the other one.
    if ((name == "intel_sub_group_shuffle_down" || name == "intel_sub_group_shuffle_up") &&
        call.arg_size() == 3) {
        llvm::Value *delta = call.getArgOperand(2);
        llvm::Value *atZero = b.CreateICmpEQ(delta, llvm::Constant::getNullValue(delta->getType()));
        llvm::Value *current = call.getArgOperand(name == "intel_sub_group_shuffle_down" ? 0 : 1);
        llvm::Value *other = call.getArgOperand(name == "intel_sub_group_shuffle_down" ? 1 : 0);
        return b.CreateSelect(atZero, current, other);
    }
    for (const char *op : {"add", "min", "max"}) {
        if (name == std::string("sub_group_reduce_") + op ||
            name == std::string("sub_group_scan_inclusive_") + op)
            return x;
        if (name == std::string("sub_group_scan_exclusive_") + op)
            return subGroupIdentity(result, op, params.empty() ? 'i' : params.front());
    }
    return std::nullopt;
}

} // namespace

std::optional<llvm::Value *> intelBlockAccess(llvm::IRBuilder<> &b, llvm::CallInst &call, bool read,
                                              llvm::function_ref<llvm::Value *(unsigned k)> index) {
    llvm::Value *pointer = call.getArgOperand(0);
    if (!pointer->getType()->isPointerTy() || call.arg_size() != (read ? 1u : 2u))
        return std::nullopt;
    llvm::Type *value = read ? call.getType() : call.getArgOperand(1)->getType();
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(value);
    llvm::Type *element = vector ? vector->getElementType() : value;
    const unsigned count = vector ? vector->getNumElements() : 1;
    llvm::Value *loaded = llvm::UndefValue::get(value);
    for (unsigned k = 0; k < count; ++k) {
        llvm::Value *address = b.CreateGEP(element, pointer, index(k));
        if (read) {
            llvm::Value *v = b.CreateLoad(element, address);
            loaded = vector ? b.CreateInsertElement(loaded, v, k) : v;
        } else {
            llvm::Value *data = call.getArgOperand(1);
            b.CreateStore(vector ? b.CreateExtractElement(data, k) : data, address);
        }
    }
    return read ? loaded : nullptr;
}

bool isSignedElement(char element) {
    return element == 'i' || element == 'l' || element == 's' || element == 'c' || element == 'a';
}

llvm::Constant *subGroupIdentity(llvm::Type *type, llvm::StringRef op, char element) {
    if (op == "add")
        return llvm::Constant::getNullValue(type);
    const bool min = op == "min";
    if (type->isFloatingPointTy())
        return llvm::ConstantFP::getInfinity(type, /*Negative=*/!min);
    const unsigned bits = type->getIntegerBitWidth();
    const bool isSigned = isSignedElement(element);
    llvm::APInt value =
        min ? (isSigned ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getMaxValue(bits))
            : (isSigned ? llvm::APInt::getSignedMinValue(bits) : llvm::APInt::getMinValue(bits));
    return llvm::ConstantInt::get(type, value);
}

unsigned rewriteSubGroupCalls(llvm::Module &module, const SubGroupReplacement &replacement) {
    struct Builtin {
        llvm::Function *function;
        llvm::StringRef name, params;
    };
    std::vector<Builtin> builtins;
    for (llvm::Function &function : module) {
        Builtin b{&function, {}, {}};
        if (function.isDeclaration() && demangleName(function.getName(), &b.name, &b.params) &&
            b.name.contains("sub_group"))
            builtins.push_back(b);
    }
    unsigned replaced = 0;
    for (const Builtin &b : builtins)
        replaced += rewriteCalls(
            *b.function, [&](llvm::CallInst &call) { return replacement(call, b.name, b.params); });
    return replaced;
}

unsigned resolveSubGroupBuiltins(llvm::Module &module) {
    return rewriteSubGroupCalls(module, replacement);
}

} // namespace detail
} // namespace ze_driver
