// MemMoveLoweringPass: translator 15 translates llvm.memmove as two
// OpCopyMemorySized through a temporary OpVariable that it declares at the
// place of the call. SPIR-V requires every function-scope OpVariable at the
// start of the entry block, so any memmove outside the entry block gives an
// invalid module. The optimiser creates memmove from ordinary struct and array
// copies when it cannot prove source and destination apart.
//
// Lowered here instead, with the same meaning:
//   - constant length: copy through a temporary declared in the entry block
//     (what the translator meant to do: a correct memmove for any overlap);
//   - otherwise, source and destination in the same address space: LLVM's
//     memmove loop, which picks the copy direction at run time;
//   - otherwise, two different non-generic address spaces cannot overlap, so
//     it is a memcpy.
// A variable-length memmove between the generic and another address space is
// left to the translator (it declares its temporary; validation reports it).
#include "legalize_passes.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/LowerMemIntrinsics.h>

#include <vector>

namespace imex_l0::compiler {
namespace {

constexpr unsigned genericAddressSpace = 4; // SPIR's generic address space

} // namespace

bool MemMoveLoweringPass::lowerMemMoves(llvm::Function &function) {
    std::vector<llvm::MemMoveInst *> moves;
    for (llvm::Instruction &instruction : llvm::instructions(function))
        if (auto *move = llvm::dyn_cast<llvm::MemMoveInst>(&instruction))
            moves.push_back(move);

    bool changed = false;
    for (llvm::MemMoveInst *move : moves) {
        llvm::IRBuilder<> builder(move);
        const unsigned destinationSpace = move->getDestAddressSpace();
        const unsigned sourceSpace = move->getSourceAddressSpace();
        if (auto *length = llvm::dyn_cast<llvm::ConstantInt>(move->getLength())) {
            llvm::BasicBlock &entry = function.getEntryBlock();
            llvm::IRBuilder<> entryBuilder(&entry, entry.getFirstInsertionPt());
            llvm::AllocaInst *temporary = entryBuilder.CreateAlloca(
                llvm::ArrayType::get(builder.getInt8Ty(), length->getZExtValue()), nullptr,
                "memmove.tmp");
            const llvm::Align alignment =
                std::max(move->getDestAlign().valueOrOne(), move->getSourceAlign().valueOrOne());
            temporary->setAlignment(alignment);
            llvm::Value *bytes = builder.CreateBitCast(temporary, builder.getInt8PtrTy());
            builder.CreateMemCpy(bytes, alignment, move->getRawSource(), move->getSourceAlign(),
                                 length, move->isVolatile());
            builder.CreateMemCpy(move->getRawDest(), move->getDestAlign(), bytes, alignment, length,
                                 move->isVolatile());
        } else if (destinationSpace == sourceSpace) {
            llvm::expandMemMoveAsLoop(move);
        } else if (destinationSpace != genericAddressSpace && sourceSpace != genericAddressSpace) {
            builder.CreateMemCpy(move->getRawDest(), move->getDestAlign(), move->getRawSource(),
                                 move->getSourceAlign(), move->getLength(), move->isVolatile());
        } else {
            continue;
        }
        move->eraseFromParent();
        changed = true;
    }
    return changed;
}

llvm::PreservedAnalyses MemMoveLoweringPass::run(llvm::Function &function,
                                                 llvm::FunctionAnalysisManager &) {
    return lowerMemMoves(function) ? llvm::PreservedAnalyses::none()
                                   : llvm::PreservedAnalyses::all();
}

} // namespace imex_l0::compiler
