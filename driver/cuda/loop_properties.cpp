#include "loop_properties.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/InstrTypes.h>

namespace ze_cuda {

unsigned bodySize(const llvm::Loop &loop) {
    unsigned instructions = 0;
    for (llvm::BasicBlock *block : loop.blocks())
        for (llvm::Instruction &i : *block) {
            ++instructions;
            if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i); call && call->isConvergent())
                return 0;
        }
    return instructions;
}

bool hasLoopMetadata(const llvm::Loop &loop, llvm::StringRef prefix) {
    llvm::MDNode *id = loop.getLoopID();
    if (id == nullptr)
        return false;
    for (const llvm::MDOperand &op : id->operands())
        if (auto *node = llvm::dyn_cast_or_null<llvm::MDNode>(op.get()))
            if (node->getNumOperands() > 0)
                if (auto *name = llvm::dyn_cast<llvm::MDString>(node->getOperand(0)))
                    if (name->getString().startswith(prefix))
                        return true;
    return false;
}

void addLoopMetadata(llvm::Loop &loop, llvm::ArrayRef<llvm::Metadata *> node) {
    llvm::LLVMContext &ctx = loop.getHeader()->getContext();
    llvm::SmallVector<llvm::Metadata *, 4> operands = {nullptr};
    if (llvm::MDNode *id = loop.getLoopID())
        for (unsigned i = 1; i < id->getNumOperands(); ++i)
            operands.push_back(id->getOperand(i));
    operands.push_back(llvm::MDNode::get(ctx, node));
    llvm::MDNode *id = llvm::MDNode::getDistinct(ctx, operands);
    id->replaceOperandWith(0, id);
    loop.setLoopID(id);
}

} // namespace ze_cuda
