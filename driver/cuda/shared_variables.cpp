#include "shared_variables.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <vector>

namespace ze_cuda {

namespace {

constexpr unsigned kLocal = 3;

// Where a value is used (through constant expressions): by instructions of
// one function, and anywhere else.
struct Uses {
    bool here = false, elsewhere = false;
};
void findUses(const llvm::Value &value, const llvm::Function &function, Uses &uses) {
    for (const llvm::User *user : value.users()) {
        if (const auto *instruction = llvm::dyn_cast<llvm::Instruction>(user))
            (instruction->getFunction() == &function ? uses.here : uses.elsewhere) = true;
        else if (llvm::isa<llvm::ConstantExpr>(user))
            findUses(*user, function, uses);
        else
            uses.elsewhere = true; // another global's initializer
    }
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
    // Every variable the kernel uses counts towards the limit (the
    // translation's own too, such as the work-group functions' scratch);
    // those only it uses can move.
    std::vector<llvm::GlobalVariable *> own;
    uint64_t used = 0;
    for (llvm::GlobalVariable &g : module.globals()) {
        if (g.getAddressSpace() != kLocal || g.isDeclaration())
            continue;
        Uses uses;
        findUses(g, kernel, uses);
        if (!uses.here)
            continue;
        used += layout.getTypeAllocSize(g.getValueType());
        if (!uses.elsewhere)
            own.push_back(&g);
    }
    if (used <= kStaticSharedLimit || own.empty())
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
