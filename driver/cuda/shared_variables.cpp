#include "shared_variables.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <vector>

namespace ze_cuda {

namespace {

constexpr unsigned kLocal = 3;

// Whether every use of `value` (through constant expressions) is an
// instruction of `function`.
bool usedOnlyIn(const llvm::Value &value, const llvm::Function &function) {
    for (const llvm::User *user : value.users()) {
        if (const auto *instruction = llvm::dyn_cast<llvm::Instruction>(user)) {
            if (instruction->getFunction() != &function)
                return false;
        } else if (!llvm::isa<llvm::ConstantExpr>(user) || !usedOnlyIn(*user, function)) {
            return false;
        }
    }
    return !value.use_empty();
}

} // namespace

std::string sharedVariablesName(const std::string &kernel) {
    return "__ze_cuda_shared_variables_" + kernel;
}

llvm::GlobalVariable &dynamicSharedMemory(llvm::Module &module) {
    if (llvm::GlobalVariable *shared = module.getNamedGlobal(kDynamicShared))
        return *shared;
    auto *array = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()), 0);
    auto *shared = new llvm::GlobalVariable(
        module, array, false, llvm::GlobalValue::ExternalLinkage, nullptr, kDynamicShared, nullptr,
        llvm::GlobalValue::NotThreadLocal, kLocal);
    shared->setAlignment(llvm::Align(16));
    return *shared;
}

uint64_t placeSharedVariables(llvm::Function &kernel) {
    // A kernel called as a function runs in its caller's launch, whose
    // dynamic shared memory does not hold these variables.
    if (!kernel.use_empty())
        return 0;
    llvm::Module &module = *kernel.getParent();
    const llvm::DataLayout &layout = module.getDataLayout();
    std::vector<llvm::GlobalVariable *> own;
    uint64_t total = 0;
    for (llvm::GlobalVariable &g : module.globals())
        if (g.getAddressSpace() == kLocal && !g.isDeclaration() && usedOnlyIn(g, kernel)) {
            own.push_back(&g);
            total += layout.getTypeAllocSize(g.getValueType());
        }
    if (total <= kStaticSharedLimit)
        return 0;
    llvm::LLVMContext &context = module.getContext();
    llvm::Type *i8 = llvm::Type::getInt8Ty(context);
    llvm::GlobalVariable &dynamicShared = dynamicSharedMemory(module);
    uint64_t offset = 0;
    for (llvm::GlobalVariable *g : own) {
        const uint64_t align = std::min<uint64_t>(layout.getPreferredAlign(g).value(), 16);
        offset = (offset + align - 1) / align * align;
        llvm::Constant *place = llvm::ConstantExpr::getInBoundsGetElementPtr(
            i8, &dynamicShared, llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), offset));
        offset += layout.getTypeAllocSize(g->getValueType());
        g->replaceAllUsesWith(place);
        g->eraseFromParent();
    }
    const uint64_t placed = (offset + 15) / 16 * 16;
    auto *i32 = llvm::Type::getInt32Ty(context);
    new llvm::GlobalVariable(module, i32, /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
                             llvm::ConstantInt::get(i32, placed),
                             sharedVariablesName(kernel.getName().str()), nullptr,
                             llvm::GlobalValue::NotThreadLocal, /*global=*/1);
    return placed;
}

} // namespace ze_cuda
