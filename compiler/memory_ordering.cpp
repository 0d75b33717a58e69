#include "memory_ordering.hpp"

#include "mangled_name.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace imex_l0::compiler {

namespace {

// Which arguments of a builtin are memory orders and which is the scope.
struct OrderingArguments {
    std::vector<unsigned> orders;
    int scope = -1;
};

OrderingArguments orderingArguments(llvm::StringRef builtin) {
    if (builtin == "atomic_work_item_fence") // (flags, order, scope)
        return {{1}, 2};
    if (builtin == "work_group_barrier" || builtin == "sub_group_barrier") // (flags[, scope])
        return {{}, 1};
    if (!builtin.startswith("atomic_") || !builtin.endswith("_explicit"))
        return {};
    if (builtin.contains("compare_exchange")) // (object, expected, desired, success, failure)
        return {{3, 4}, 5};
    if (builtin == "atomic_load_explicit" || builtin.startswith("atomic_flag_"))
        return {{1}, 2};
    return {{2}, 3}; // store, exchange, fetch_<op>: (object, operand, order[, scope])
}

// The ordering arguments a call passes, with what each must be.
struct OrderingArgument {
    llvm::Value *value;
    bool isScope;
};

std::vector<OrderingArgument> orderingArgumentsOf(const llvm::CallBase &call) {
    std::vector<OrderingArgument> found;
    const llvm::Function *callee = call.getCalledFunction();
    if (!callee)
        return found;
    OrderingArguments where = orderingArguments(unmangledName(callee->getName()));
    for (unsigned index : where.orders)
        if (index < call.arg_size())
            found.push_back({call.getArgOperand(index), false});
    if (where.scope >= 0 && unsigned(where.scope) < call.arg_size())
        found.push_back({call.getArgOperand(unsigned(where.scope)), true});
    return found;
}

// memory_order_relaxed, _acquire, _release, _acq_rel, _seq_cst (clang's
// __ATOMIC_* values; OpenCL C has no consume).
bool isMemoryOrder(int64_t value) { return value == 0 || (value >= 2 && value <= 5); }
// memory_scope_work_item, _work_group, _device, _all_svm_devices, _sub_group.
bool isMemoryScope(int64_t value) { return value >= 0 && value <= 4; }

// The parameter of its function that `value` is: the argument itself, or,
// as clang emits it before optimisation, a load of the local variable the
// parameter was stored into; nullptr for anything else.
llvm::Argument *parameterOf(llvm::Value *value) {
    if (auto *argument = llvm::dyn_cast<llvm::Argument>(value))
        return argument;
    auto *load = llvm::dyn_cast<llvm::LoadInst>(value);
    auto *local = load ? llvm::dyn_cast<llvm::AllocaInst>(load->getPointerOperand()) : nullptr;
    if (!local)
        return nullptr;
    llvm::Argument *stored = nullptr;
    for (llvm::User *user : local->users()) {
        if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user)) {
            auto *argument = llvm::dyn_cast<llvm::Argument>(store->getValueOperand());
            if (!argument || (stored && stored != argument))
                return nullptr;
            stored = argument;
        } else if (!llvm::isa<llvm::LoadInst>(user)) {
            return nullptr; // the address escapes: it may hold anything
        }
    }
    return stored;
}

// The constant `value` holds when it is one, or (at -O0, where inlined
// helpers pass their parameters through local variables) a load of a local
// variable whose only store is of one, followed through such chains;
// nullptr otherwise. A load the store does not dominate reads an undefined
// value, which the constant may stand for.
llvm::ConstantInt *constantThroughLocals(llvm::Value *value) {
    for (int depth = 0; depth < 64; ++depth) {
        if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
            return constant;
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
        if (!stored)
            return nullptr;
        value = stored;
    }
    return nullptr;
}

} // namespace

void inlineMemoryOrderingHelpers(llvm::Module &module) {
    // A worklist over the call graph: a function that forwards a parameter
    // into an ordering argument, then its callers that forward theirs into
    // that parameter, and so on.
    std::vector<llvm::Function *> work;
    auto mark = [&work](llvm::Value *value) {
        llvm::Argument *parameter = parameterOf(value);
        if (!parameter)
            return;
        llvm::Function *helper = parameter->getParent();
        if (helper->getCallingConv() == llvm::CallingConv::SPIR_KERNEL ||
            helper->hasFnAttribute(llvm::Attribute::AlwaysInline))
            return;
        helper->removeFnAttr(llvm::Attribute::NoInline);
        helper->removeFnAttr(llvm::Attribute::OptimizeNone);
        helper->addFnAttr(llvm::Attribute::AlwaysInline);
        work.push_back(helper);
    };
    for (llvm::Function &function : module)
        for (llvm::BasicBlock &block : function)
            for (llvm::Instruction &inst : block)
                if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
                    for (OrderingArgument argument : orderingArgumentsOf(*call))
                        mark(argument.value);
    while (!work.empty()) {
        llvm::Function *helper = work.back();
        work.pop_back();
        for (llvm::User *user : helper->users())
            if (auto *call = llvm::dyn_cast<llvm::CallBase>(user);
                call && call->getCalledFunction() == helper)
                for (llvm::Use &argument : call->args())
                    mark(argument.get());
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
                    const char *kind = argument.isScope ? "memory_scope" : "memory_order";
                    const char *values =
                        argument.isScope ? "memory_scope_work_item, _sub_group, _work_group, "
                                           "_device, _all_svm_devices"
                                         : "memory_order_relaxed, _acquire, _release, _acq_rel, "
                                           "_seq_cst";
                    std::string what =
                        std::string("the ") + kind + " argument of '" +
                        unmangledName(call->getCalledFunction()->getName()).str() +
                        "' (in function '" + function.getName().str() + "')";
                    llvm::ConstantInt *constant = constantThroughLocals(argument.value);
                    if (constant && constant != argument.value)
                        call->replaceUsesOfWith(argument.value, constant);
                    if (!constant) {
                        errors += "kernel.cl: error: " + what +
                                  " is known only at run time, which the SPIR-V translator "
                                  "cannot translate: pass one of " +
                                  values + " (through helpers, which are inlined)\n";
                        continue;
                    }
                    int64_t value = constant->getBitWidth() <= 64 ? constant->getSExtValue() : -1;
                    if (argument.isScope ? !isMemoryScope(value) : !isMemoryOrder(value))
                        errors += "kernel.cl: error: " + what + " is " +
                                  std::to_string(value) + ", not a " + kind +
                                  " value: use one of " + values + "\n";
                }
            }
        }
    }
    return errors;
}

} // namespace imex_l0::compiler
