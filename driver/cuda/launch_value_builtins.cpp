#include "launch_value_builtins.hpp"

#include "declared_builtins.hpp"
#include "launch_values.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace ze_cuda {

namespace {

constexpr unsigned kSpirLocal = 3;
// The variable of value `k` is kVariable + k; a kernel's first parameter
// of them is in its attribute kFirstParameter.
constexpr const char *kVariable = "__ze_cuda_launch_value.";
constexpr const char *kFirstParameter = "ze-cuda-launch-values";

std::string variableName(unsigned value) {
    return kVariable + std::to_string(value);
}

// A scalar variable for each value, not an array: the optimizer would split
// an internal array into scalars named its own way, and it deletes the
// stores of a scalar nothing reads.
llvm::GlobalVariable *variable(llvm::Module &module, unsigned value) {
    const std::string name = variableName(value);
    if (llvm::GlobalVariable *existing = module.getGlobalVariable(name, true))
        return existing;
    llvm::Type *i32 = llvm::Type::getInt32Ty(module.getContext());
    return new llvm::GlobalVariable(module, i32, false, llvm::GlobalValue::InternalLinkage,
                                    llvm::UndefValue::get(i32), name, nullptr,
                                    llvm::GlobalValue::NotThreadLocal, kSpirLocal);
}

// Which value a load reads, or -1 for a load of something else.
int valueRead(const llvm::LoadInst &load) {
    const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(load.getPointerOperand());
    if (global == nullptr || load.isVolatile() || !load.getType()->isIntegerTy(32) ||
        !global->getName().startswith(kVariable))
        return -1;
    unsigned value = 0;
    if (global->getName().drop_front(std::strlen(kVariable)).getAsInteger(10, value) ||
        value >= LaunchValues::kCount)
        return -1;
    return int(value);
}

} // namespace

void storeLaunchValues(llvm::Function &kernel, unsigned first) {
    llvm::Module &module = *kernel.getParent();
    llvm::IRBuilder<> b(&*kernel.getEntryBlock().getFirstInsertionPt());
    for (unsigned k = 0; k < LaunchValues::kCount; ++k)
        b.CreateStore(kernel.getArg(first + k), variable(module, k));
    kernel.addFnAttr(kFirstParameter, std::to_string(first));
}

void defineLaunchValueBuiltins(llvm::Module &module) {
    llvm::LLVMContext &ctx = module.getContext();
    llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
    llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
    llvm::FunctionType *workItem = llvm::FunctionType::get(i64, {i32}, false);
    // Each of these takes the dimension, its one argument.
    auto define = [&](const char *name, auto body) {
        defineDeclared(module, name, [&](llvm::IRBuilder<> &b, llvm::Function *f) {
            return body(b, f->getArg(0));
        });
    };
    auto call = [&](llvm::IRBuilder<> &b, const char *name, llvm::Value *dim) -> llvm::Value * {
        return b.CreateCall(module.getOrInsertFunction(name, workItem), {dim});
    };
    auto load = [&](llvm::IRBuilder<> &b, unsigned value) -> llvm::Value * {
        return b.CreateLoad(i32, variable(module, value));
    };
    auto special = [&](llvm::IRBuilder<> &b, llvm::Intrinsic::ID id) -> llvm::Value * {
        return b.CreateCall(llvm::Intrinsic::getDeclaration(&module, id));
    };
    // `values[d]` (32-bit) for dimension `dim` (0, 1, 2), `beyond` past the
    // third, as OpenCL says: the dimensions a launch does not have. Group ids
    // and counts are below 2^31 (the devices' maxima) and sign-extended, as
    // libclc's are, so that their products with the group size are one wide
    // multiplication; the offsets are 32-bit unsigned numbers.
    auto byDimension = [&](llvm::IRBuilder<> &b, llvm::Value *dim, llvm::Value *const values[3],
                           uint64_t beyond, bool signedValues) {
        llvm::Value *result = b.getInt64(beyond);
        for (unsigned d = 3; d-- > 0;)
            result = b.CreateSelect(b.CreateICmpEQ(dim, b.getInt32(d)),
                                    signedValues ? b.CreateSExt(values[d], i64)
                                                 : b.CreateZExt(values[d], i64),
                                    result);
        return result;
    };
    // Callers first: a definition's calls declare what it calls, which is
    // then defined after it.
    define("_Z13get_global_idj", [&](llvm::IRBuilder<> &b, llvm::Value *dim) -> llvm::Value * {
        llvm::Value *base =
            b.CreateMul(call(b, "_Z12get_group_idj", dim), call(b, "_Z14get_local_sizej", dim));
        return b.CreateAdd(b.CreateAdd(base, call(b, "_Z12get_local_idj", dim)),
                           call(b, "_Z17get_global_offsetj", dim));
    });
    define("_Z15get_global_sizej", [&](llvm::IRBuilder<> &b, llvm::Value *dim) -> llvm::Value * {
        return b.CreateMul(call(b, "_Z14get_num_groupsj", dim),
                           call(b, "_Z14get_local_sizej", dim));
    });
    define("_Z17get_global_offsetj", [&](llvm::IRBuilder<> &b, llvm::Value *dim) {
        llvm::Value *const offsets[3] = {load(b, kOffsetValue), load(b, kOffsetValue + 1),
                                         load(b, kOffsetValue + 2)};
        return byDimension(b, dim, offsets, 0, false);
    });
    // The part's first group added to the grid's id: below the launch's
    // count.
    define("_Z12get_group_idj", [&](llvm::IRBuilder<> &b, llvm::Value *dim) {
        llvm::Value *const ids[3] = {
            special(b, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x),
            b.CreateAdd(special(b, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y),
                        load(b, kGroupBaseValue), "", /*HasNUW=*/true, /*HasNSW=*/true),
            b.CreateAdd(special(b, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z),
                        load(b, kGroupBaseValue + 1), "", true, true)};
        return byDimension(b, dim, ids, 0, true);
    });
    define("_Z14get_num_groupsj", [&](llvm::IRBuilder<> &b, llvm::Value *dim) {
        llvm::Value *const counts[3] = {special(b, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x),
                                        load(b, kGroupCountValue), load(b, kGroupCountValue + 1)};
        return byDimension(b, dim, counts, 1, true);
    });
}

llvm::PreservedAnalyses LaunchValuesPass::run(llvm::Function &function,
                                              llvm::FunctionAnalysisManager &) {
    llvm::Attribute first = function.getFnAttribute(kFirstParameter);
    unsigned at = 0;
    if (!first.isStringAttribute() || first.getValueAsString().getAsInteger(10, at) ||
        at + LaunchValues::kCount > function.arg_size())
        return llvm::PreservedAnalyses::all();
    std::vector<std::pair<llvm::LoadInst *, int>> loads; // each with the value it reads
    for (llvm::BasicBlock &block : function)
        for (llvm::Instruction &instruction : block)
            if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
                if (int value = valueRead(*load); value >= 0)
                    loads.emplace_back(load, value);
    for (auto [load, value] : loads) {
        load->replaceAllUsesWith(function.getArg(at + unsigned(value)));
        load->eraseFromParent();
    }
    if (loads.empty())
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

void addLaunchValues(llvm::PassBuilder &builder) {
    builder.registerPeepholeEPCallback(
        [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(LaunchValuesPass());
        });
}

void dropUnreadLaunchValues(llvm::Module &module) {
    for (unsigned k = 0; k < LaunchValues::kCount; ++k) {
        llvm::GlobalVariable *global = module.getGlobalVariable(variableName(k), true);
        if (global == nullptr)
            continue;
        bool read = false;
        for (llvm::User *user : global->users())
            read = read || !llvm::isa<llvm::StoreInst>(user);
        if (read)
            continue;
        for (llvm::User *user : llvm::make_early_inc_range(global->users()))
            llvm::cast<llvm::StoreInst>(user)->eraseFromParent();
        global->eraseFromParent();
    }
}

} // namespace ze_cuda
