#include "memory_ordering.hpp"

#include "mangled_name.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <set>
#include <vector>

namespace imex_l0::compiler {

namespace {

// What an argument that orders memory is.
enum class Kind { order, scope, flags };

struct KindInfo {
    const char *name;
    const char *values; // what to pass instead, for the message
    bool (*valid)(int64_t);
};

const KindInfo &info(Kind kind) {
    // memory_order: clang's __ATOMIC_* values (OpenCL C has no consume).
    static const KindInfo order = {"memory_order",
                                   "memory_order_relaxed, _acquire, _release, _acq_rel, _seq_cst",
                                   [](int64_t v) { return v == 0 || (v >= 2 && v <= 5); }};
    // memory_scope: _work_item 0, _work_group 1, _device 2, _all_svm_devices 3, _sub_group 4.
    static const KindInfo scope = {
        "memory_scope",
        "memory_scope_work_item, _sub_group, _work_group, _device, _all_svm_devices",
        [](int64_t v) { return v >= 0 && v <= 4; }};
    // cl_mem_fence_flags: a bit mask; the translator takes any constant.
    static const KindInfo flags = {"cl_mem_fence_flags",
                                   "CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE, CLK_IMAGE_MEM_FENCE "
                                   "or a combination",
                                   [](int64_t) { return true; }};
    return kind == Kind::order ? order : kind == Kind::scope ? scope : flags;
}

struct Position {
    unsigned index;
    Kind kind;
};

// Where a builtin takes the arguments that order memory.
std::vector<Position> orderingPositions(llvm::StringRef builtin) {
    if (builtin == "atomic_work_item_fence")
        return {{0, Kind::flags}, {1, Kind::order}, {2, Kind::scope}};
    if (builtin == "work_group_barrier" || builtin == "sub_group_barrier") // (flags[, scope])
        return {{0, Kind::flags}, {1, Kind::scope}};
    if (builtin == "barrier" || builtin == "mem_fence" || builtin == "read_mem_fence" ||
        builtin == "write_mem_fence")
        return {{0, Kind::flags}};
    if (!builtin.startswith("atomic_") || !builtin.endswith("_explicit"))
        return {};
    if (builtin.contains("compare_exchange")) // (object, expected, desired, success, failure)
        return {{3, Kind::order}, {4, Kind::order}, {5, Kind::scope}};
    if (builtin == "atomic_load_explicit" || builtin.startswith("atomic_flag_"))
        return {{1, Kind::order}, {2, Kind::scope}};
    // store, exchange, fetch_<op>: (object, operand, order[, scope])
    return {{2, Kind::order}, {3, Kind::scope}};
}

struct OrderingArgument {
    llvm::Value *value;
    Kind kind;
};

// The arguments a call passes that order memory (those it has: the scope is
// optional).
std::vector<OrderingArgument> orderingArgumentsOf(const llvm::CallBase &call) {
    std::vector<OrderingArgument> found;
    const llvm::Function *callee = call.getCalledFunction();
    if (!callee)
        return found;
    for (Position p : orderingPositions(unmangledName(callee->getName())))
        if (p.index < call.arg_size())
            found.push_back({call.getArgOperand(p.index), p.kind});
    return found;
}

// What `value` reads when it is a load of a local variable (an alloca) that
// one store writes and nothing else touches but loads: the stored value, as
// clang spills a parameter before optimisation and -O0 passes an inlined
// helper's arguments; nullptr otherwise. A load the store does not dominate
// reads an undefined value, which the stored one may stand for.
llvm::Value *onlyStoredValue(llvm::Value *value) {
    auto *load = llvm::dyn_cast<llvm::LoadInst>(value);
    auto *local = load ? llvm::dyn_cast<llvm::AllocaInst>(load->getPointerOperand()) : nullptr;
    if (!local)
        return nullptr;
    llvm::Value *stored = nullptr;
    for (llvm::User *user : local->users()) {
        auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
        if (store && store->getPointerOperand() == local && !stored)
            stored = store->getValueOperand();
        else if (store || !llvm::isa<llvm::LoadInst>(user))
            return nullptr; // a second store, or the address escapes
    }
    return stored;
}

// The parameter of its function that `value` is: the argument itself, or a
// load of the local variable it was stored into; nullptr for anything else.
llvm::Argument *parameterOf(llvm::Value *value) {
    if (auto *argument = llvm::dyn_cast<llvm::Argument>(value))
        return argument;
    return llvm::dyn_cast_or_null<llvm::Argument>(onlyStoredValue(value));
}

// The constant `value` is, directly or through chains of such local
// variables; nullptr otherwise.
llvm::ConstantInt *constantThroughLocals(llvm::Value *value) {
    for (int depth = 0; value && depth < 64; ++depth) {
        if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
            return constant;
        value = onlyStoredValue(value);
    }
    return nullptr;
}

} // namespace

void inlineMemoryOrderingHelpers(llvm::Module &module) {
    // A worklist of parameters: one that a function forwards into an
    // ordering argument, then the callers' parameters they pass as it, and
    // so on.
    std::vector<llvm::Argument *> work;
    std::set<llvm::Argument *> seen;
    auto mark = [&](llvm::Value *value) {
        llvm::Argument *parameter = parameterOf(value);
        if (!parameter || !seen.insert(parameter).second)
            return;
        llvm::Function *helper = parameter->getParent();
        if (helper->getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
            return;
        helper->removeFnAttr(llvm::Attribute::NoInline);
        helper->removeFnAttr(llvm::Attribute::OptimizeNone);
        helper->addFnAttr(llvm::Attribute::AlwaysInline);
        work.push_back(parameter);
    };
    for (llvm::Function &function : module)
        for (llvm::BasicBlock &block : function)
            for (llvm::Instruction &inst : block)
                if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
                    for (OrderingArgument argument : orderingArgumentsOf(*call))
                        mark(argument.value);
    while (!work.empty()) {
        llvm::Argument *parameter = work.back();
        work.pop_back();
        llvm::Function *helper = parameter->getParent();
        for (llvm::User *user : helper->users())
            if (auto *call = llvm::dyn_cast<llvm::CallBase>(user);
                call && call->getCalledFunction() == helper &&
                parameter->getArgNo() < call->arg_size())
                mark(call->getArgOperand(parameter->getArgNo()));
    }
}

std::string settleMemoryOrdering(llvm::Module &module) {
    std::string errors;
    for (llvm::Function &function : module) {
        for (llvm::BasicBlock &block : function) {
            for (llvm::Instruction &inst : block) {
                auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
                if (!call)
                    continue;
                for (OrderingArgument argument : orderingArgumentsOf(*call)) {
                    const KindInfo &kind = info(argument.kind);
                    std::string what = std::string("the ") + kind.name + " argument of '" +
                                       unmangledName(call->getCalledFunction()->getName()).str() +
                                       "' (in function '" + function.getName().str() + "')";
                    llvm::ConstantInt *constant = constantThroughLocals(argument.value);
                    if (constant && constant != argument.value)
                        call->replaceUsesOfWith(argument.value, constant);
                    if (!constant) {
                        errors += "kernel.cl: error: " + what +
                                  " is known only at run time, which the SPIR-V translator "
                                  "cannot translate: pass a constant (" +
                                  kind.values +
                                  "), directly or through helpers (they are "
                                  "inlined)\n";
                        continue;
                    }
                    int64_t value = constant->getBitWidth() <= 64 ? constant->getSExtValue() : -1;
                    if (!kind.valid(value))
                        errors += "kernel.cl: error: " + what + " is " + std::to_string(value) +
                                  ", not a " + kind.name + " value: use one of " + kind.values +
                                  "\n";
                }
            }
        }
    }
    return errors;
}

} // namespace imex_l0::compiler
