// legalizeIntegerWidths: SPIR-V has 8-, 16-, 32- and 64-bit integers (and
// bool); the Int8/Int16/Int64 capabilities cover the rest, nothing covers i2,
// i24 or i31. The optimiser creates such widths when it narrows a value to the
// bits that are live (InstCombine, switch-to-lookup-table, SROA). Most of them
// never appear because the optimisation pipeline runs with native integer
// widths declared (legalize.cpp); this pass rewrites what is left.
//
// Representation: a value of illegal type iN (or a vector of iN) is carried in
// the next legal width iM, zero-extended: bits N..M-1 are always 0. Operations
// that can set high bits (add, sub, mul, shl, and anything sign-extended) are
// followed by a mask; operations that read the sign bit (ashr, sdiv, srem,
// signed compares, sext, sitofp, smin/smax) sign-extend in register first.
// Memory keeps its exact layout: an iN load or store touches the same
// store-size bytes as before.
//
// Widths above 64 are first narrowed where only their low 64 bits are used
// (legalize_wide_integers.cpp). Anything outside that set (illegal widths in
// calls, returns, aggregates, vector memory operations, other widths above 64)
// is refused before the function is
// touched, and the caller falls back to an unoptimised build.
#include "legalize_passes.hpp"
#include "type_walk.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

namespace imex_l0::compiler {

bool isLegalSpirvIntWidth(unsigned bits) {
    return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

namespace {

// The legal width a value of `bits` bits is carried in, or 0 above 64.
unsigned promotedWidth(unsigned bits) {
    for (unsigned legal : {8u, 16u, 32u, 64u})
        if (bits <= legal)
            return legal;
    return 0;
}

// iN or <k x iN> with N illegal.
bool isIllegalIntOrVector(const llvm::Type *type) {
    if (auto *vector = llvm::dyn_cast<llvm::VectorType>(type))
        type = vector->getElementType();
    auto *integer = llvm::dyn_cast<llvm::IntegerType>(type);
    return integer && !isLegalSpirvIntWidth(integer->getBitWidth());
}

bool isIllegalScalar(const llvm::Type *type) {
    return llvm::isa<llvm::IntegerType>(type) && isIllegalIntOrVector(type);
}

unsigned scalarBits(const llvm::Type *type) {
    return type->getScalarSizeInBits();
}

// `type` if it mentions an illegal integer anywhere (type_walk.hpp), else null.
llvm::Type *illegalIn(llvm::Type *type) {
    llvm::SmallPtrSet<llvm::Type *, 8> seen;
    auto illegalInteger = [](llvm::Type *t) {
        auto *integer = llvm::dyn_cast<llvm::IntegerType>(t);
        return integer && !isLegalSpirvIntWidth(integer->getBitWidth());
    };
    return mentionsType(type, illegalInteger, seen) ? type : nullptr;
}

// A pointer's value before any bitcasts (which only change the pointee type).
llvm::Value *stripBitcasts(llvm::Value *pointer) {
    while (auto *cast = llvm::dyn_cast<llvm::BitCastOperator>(pointer))
        pointer = cast->getOperand(0);
    return pointer;
}

class WidthLegalizer {
public:
    explicit WidthLegalizer(llvm::Function &function)
        : function_(function), layout_(function.getParent()->getDataLayout()) {}

    // "" when every illegal use in the function is one this class rewrites.
    std::string check() const;
    void rewrite();

private:
    llvm::Type *promotedType(llvm::Type *type) const;
    llvm::Value *promoted(llvm::Value *value);
    llvm::Value *mask(llvm::IRBuilder<> &builder, llvm::Value *value, unsigned bits) const;
    llvm::Value *signExtendInRegister(llvm::IRBuilder<> &builder, llvm::Value *value,
                                      unsigned bits) const;
    llvm::Value *rewriteInstruction(llvm::Instruction &instruction);
    llvm::Value *rewriteLoad(llvm::LoadInst &load);
    void rewriteStore(llvm::StoreInst &store);
    std::string unsupported(const llvm::Instruction &instruction) const;

    llvm::Function &function_;
    const llvm::DataLayout &layout_;
    llvm::DenseMap<llvm::Value *, llvm::Value *> promoted_;         // old illegal value -> carrier
    std::vector<std::pair<llvm::PHINode *, llvm::PHINode *>> phis_; // old -> new, incoming later
};

llvm::Type *WidthLegalizer::promotedType(llvm::Type *type) const {
    llvm::Type *scalar =
        llvm::IntegerType::get(type->getContext(), promotedWidth(scalarBits(type)));
    if (auto *vector = llvm::dyn_cast<llvm::VectorType>(type))
        return llvm::VectorType::get(scalar, vector->getElementCount());
    return scalar;
}

llvm::Value *WidthLegalizer::promoted(llvm::Value *value) {
    if (auto *constant = llvm::dyn_cast<llvm::Constant>(value))
        return llvm::ConstantFoldCastOperand(llvm::Instruction::ZExt, constant,
                                             promotedType(value->getType()), layout_);
    return promoted_.lookup(value);
}

llvm::Value *WidthLegalizer::mask(llvm::IRBuilder<> &builder, llvm::Value *value,
                                  unsigned bits) const {
    const unsigned width = scalarBits(value->getType());
    if (bits >= width)
        return value;
    return builder.CreateAnd(
        value, llvm::ConstantInt::get(value->getType(), llvm::APInt::getLowBitsSet(width, bits)));
}

llvm::Value *WidthLegalizer::signExtendInRegister(llvm::IRBuilder<> &builder, llvm::Value *value,
                                                  unsigned bits) const {
    const unsigned shift = scalarBits(value->getType()) - bits;
    if (shift == 0)
        return value;
    llvm::Value *amount = llvm::ConstantInt::get(value->getType(), shift);
    return builder.CreateAShr(builder.CreateShl(value, amount), amount);
}

std::string WidthLegalizer::unsupported(const llvm::Instruction &instruction) const {
    bool touchesIllegal = isIllegalIntOrVector(instruction.getType());
    for (const llvm::Value *operand : instruction.operands())
        touchesIllegal |= isIllegalIntOrVector(operand->getType());
    if (!touchesIllegal) {
        // Pointers to illegal integers (bitcasts feeding loads/stores) go away
        // with the loads and stores; anything else that names one cannot.
        if (llvm::isa<llvm::BitCastInst>(instruction))
            return "";
        if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction))
            if (illegalIn(gep->getSourceElementType()))
                return "address arithmetic on an illegal integer type";
        if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
            if (illegalIn(alloca->getAllocatedType()))
                return "a local variable of an illegal integer type";
        return "";
    }

    for (const llvm::Value *operand : instruction.operands())
        if (auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(operand))
            if (isIllegalIntOrVector(expression->getType()))
                return "a constant expression of an illegal integer type";
    if (isIllegalIntOrVector(instruction.getType()) &&
        promotedWidth(scalarBits(instruction.getType())) == 0)
        return "an integer wider than 64 bits";
    for (const llvm::Value *operand : instruction.operands())
        if (isIllegalIntOrVector(operand->getType()) &&
            promotedWidth(scalarBits(operand->getType())) == 0)
            return "an integer wider than 64 bits";

    switch (instruction.getOpcode()) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Mul:
    case llvm::Instruction::Shl:
    case llvm::Instruction::LShr:
    case llvm::Instruction::AShr:
    case llvm::Instruction::UDiv:
    case llvm::Instruction::SDiv:
    case llvm::Instruction::URem:
    case llvm::Instruction::SRem:
    case llvm::Instruction::And:
    case llvm::Instruction::Or:
    case llvm::Instruction::Xor:
    case llvm::Instruction::ICmp:
    case llvm::Instruction::Trunc:
    case llvm::Instruction::ZExt:
    case llvm::Instruction::SExt:
    case llvm::Instruction::UIToFP:
    case llvm::Instruction::SIToFP:
    case llvm::Instruction::FPToUI:
    case llvm::Instruction::FPToSI:
    case llvm::Instruction::PHI:
    case llvm::Instruction::Select:
    case llvm::Instruction::Freeze:
        return "";
    case llvm::Instruction::Switch:
        return isIllegalScalar(instruction.getOperand(0)->getType()) ? "" : "a switch";
    case llvm::Instruction::GetElementPtr: {
        auto &gep = llvm::cast<llvm::GetElementPtrInst>(instruction);
        if (illegalIn(gep.getSourceElementType()) || gep.getType()->isVectorTy())
            return "address arithmetic on an illegal integer type";
        return "";
    }
    case llvm::Instruction::Load: {
        auto &load = llvm::cast<llvm::LoadInst>(instruction);
        if (load.isAtomic())
            return "an atomic load of an illegal integer type";
        return isIllegalScalar(load.getType()) ? "" : "a vector load of an illegal integer type";
    }
    case llvm::Instruction::Store: {
        auto &store = llvm::cast<llvm::StoreInst>(instruction);
        if (store.isAtomic())
            return "an atomic store of an illegal integer type";
        return isIllegalScalar(store.getValueOperand()->getType())
                   ? ""
                   : "a vector store of an illegal integer type";
    }
    case llvm::Instruction::BitCast: {
        // iN <-> <k x iE>: the bytes of a small vector viewed as one integer.
        llvm::Type *from = instruction.getOperand(0)->getType();
        llvm::Type *to = instruction.getType();
        llvm::Type *vector = isIllegalScalar(from) ? to : from;
        if ((isIllegalScalar(from) || isIllegalScalar(to)) && vector->isVectorTy() &&
            !llvm::cast<llvm::VectorType>(vector)->getElementCount().isScalable() &&
            vector->getScalarType()->isIntegerTy() && !isIllegalIntOrVector(vector))
            return "";
        return "a bit cast of an illegal integer type";
    }
    case llvm::Instruction::Call:
        if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
            switch (intrinsic->getIntrinsicID()) {
            case llvm::Intrinsic::umin:
            case llvm::Intrinsic::umax:
            case llvm::Intrinsic::smin:
            case llvm::Intrinsic::smax:
                return "";
            default:
                break;
            }
        }
        return "a call with an argument or result of an illegal integer type";
    default:
        return std::string("'") + instruction.getOpcodeName() + "' on an illegal integer type";
    }
}

std::string WidthLegalizer::check() const {
    if (illegalIn(function_.getFunctionType()))
        return "an argument or result of an illegal integer type";
    for (const llvm::Instruction &instruction : llvm::instructions(function_)) {
        std::string reason = unsupported(instruction);
        if (!reason.empty()) {
            std::string text;
            llvm::raw_string_ostream out(text);
            instruction.print(out);
            return reason + " (" + llvm::StringRef(out.str()).trim().str() + ")";
        }
    }
    return "";
}

llvm::Value *WidthLegalizer::rewriteLoad(llvm::LoadInst &load) {
    llvm::IRBuilder<> builder(&load);
    const unsigned bits = scalarBits(load.getType());
    const unsigned bytes = (bits + 7) / 8;
    llvm::Type *carrier = promotedType(load.getType());
    const unsigned space = load.getPointerAddressSpace();
    llvm::Value *base = stripBitcasts(load.getPointerOperand());
    llvm::Value *result;
    if (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8) {
        // Same bytes, read as the legal integer of that size; the bits beyond
        // N are unspecified in memory and masked off.
        llvm::Type *whole = builder.getIntNTy(bytes * 8);
        llvm::LoadInst *wide = builder.CreateAlignedLoad(
            whole, builder.CreateBitCast(base, whole->getPointerTo(space)), load.getAlign(),
            load.isVolatile());
        result = mask(builder, builder.CreateZExtOrTrunc(wide, carrier), bits);
    } else {
        // 3, 5, 6 or 7 bytes: one byte at a time, little-endian as spir64.
        llvm::Value *bytePointer = builder.CreateBitCast(base, builder.getInt8PtrTy(space));
        result = llvm::ConstantInt::get(carrier, 0);
        for (unsigned index = 0; index < bytes; ++index) {
            llvm::Value *address =
                builder.CreateConstGEP1_32(builder.getInt8Ty(), bytePointer, index);
            llvm::LoadInst *byte = builder.CreateAlignedLoad(
                builder.getInt8Ty(), address, llvm::commonAlignment(load.getAlign(), index),
                load.isVolatile());
            llvm::Value *placed = builder.CreateShl(builder.CreateZExt(byte, carrier), index * 8);
            result = builder.CreateOr(result, placed);
        }
        result = mask(builder, result, bits);
    }
    return result;
}

void WidthLegalizer::rewriteStore(llvm::StoreInst &store) {
    llvm::IRBuilder<> builder(&store);
    llvm::Value *value = promoted(store.getValueOperand());
    const unsigned bits = scalarBits(store.getValueOperand()->getType());
    const unsigned bytes = (bits + 7) / 8;
    const unsigned space = store.getPointerAddressSpace();
    llvm::Value *base = stripBitcasts(store.getPointerOperand());
    if (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8) {
        // The carrier is zero-extended, so the padding bits of the store size
        // get zeros, one of the values LLVM allows there.
        llvm::Type *whole = builder.getIntNTy(bytes * 8);
        builder.CreateAlignedStore(builder.CreateZExtOrTrunc(value, whole),
                                   builder.CreateBitCast(base, whole->getPointerTo(space)),
                                   store.getAlign(), store.isVolatile());
    } else {
        llvm::Value *bytePointer = builder.CreateBitCast(base, builder.getInt8PtrTy(space));
        for (unsigned index = 0; index < bytes; ++index) {
            llvm::Value *address =
                builder.CreateConstGEP1_32(builder.getInt8Ty(), bytePointer, index);
            llvm::Value *byte =
                builder.CreateTrunc(builder.CreateLShr(value, index * 8), builder.getInt8Ty());
            builder.CreateAlignedStore(
                byte, address, llvm::commonAlignment(store.getAlign(), index), store.isVolatile());
        }
    }
}

// Returns the replacement: the carrier when the result type is illegal,
// otherwise a value of the instruction's own type (or the instruction itself
// when it was changed in place).
llvm::Value *WidthLegalizer::rewriteInstruction(llvm::Instruction &instruction) {
    llvm::IRBuilder<> builder(&instruction);
    llvm::Type *type = instruction.getType();
    const bool illegalResult = isIllegalIntOrVector(type);
    const unsigned bits = illegalResult ? scalarBits(type) : 0;

    if (auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
        llvm::Value *left = promoted(binary->getOperand(0));
        llvm::Value *right = promoted(binary->getOperand(1));
        switch (binary->getOpcode()) {
        case llvm::Instruction::And:
        case llvm::Instruction::Or:
        case llvm::Instruction::Xor:
        case llvm::Instruction::LShr:
        case llvm::Instruction::UDiv:
        case llvm::Instruction::URem:
            // Zero high bits in, zero high bits out.
            return builder.CreateBinOp(binary->getOpcode(), left, right);
        case llvm::Instruction::AShr:
            return mask(builder,
                        builder.CreateAShr(signExtendInRegister(builder, left, bits), right), bits);
        case llvm::Instruction::SDiv:
        case llvm::Instruction::SRem:
            return mask(builder,
                        builder.CreateBinOp(binary->getOpcode(),
                                            signExtendInRegister(builder, left, bits),
                                            signExtendInRegister(builder, right, bits)),
                        bits);
        default: // add, sub, mul, shl: wrap around at N bits
            return mask(builder, builder.CreateBinOp(binary->getOpcode(), left, right), bits);
        }
    }
    if (auto *compare = llvm::dyn_cast<llvm::ICmpInst>(&instruction)) {
        llvm::Value *left = promoted(compare->getOperand(0));
        llvm::Value *right = promoted(compare->getOperand(1));
        if (compare->isSigned()) {
            const unsigned operandBits = scalarBits(compare->getOperand(0)->getType());
            left = signExtendInRegister(builder, left, operandBits);
            right = signExtendInRegister(builder, right, operandBits);
        }
        return builder.CreateICmp(compare->getPredicate(), left, right);
    }
    if (auto *cast = llvm::dyn_cast<llvm::CastInst>(&instruction)) {
        llvm::Value *source = cast->getOperand(0);
        llvm::Type *sourceType = source->getType();
        const bool illegalSource = isIllegalIntOrVector(sourceType);
        llvm::Value *input = illegalSource ? promoted(source) : source;
        llvm::Type *target = illegalResult ? promotedType(type) : type;
        switch (cast->getOpcode()) {
        case llvm::Instruction::Trunc:
        case llvm::Instruction::ZExt:
            return mask(builder, builder.CreateZExtOrTrunc(input, target),
                        illegalResult ? bits : scalarBits(type));
        case llvm::Instruction::SExt:
            if (illegalSource)
                input = signExtendInRegister(builder, input, scalarBits(sourceType));
            return mask(builder, builder.CreateSExtOrTrunc(input, target),
                        illegalResult ? bits : scalarBits(type));
        case llvm::Instruction::UIToFP:
            return builder.CreateUIToFP(input, type);
        case llvm::Instruction::SIToFP:
            return builder.CreateSIToFP(
                signExtendInRegister(builder, input, scalarBits(sourceType)), type);
        case llvm::Instruction::FPToUI:
            // Out-of-range results are poison in the original too.
            return mask(builder, builder.CreateFPToUI(input, target), bits);
        case llvm::Instruction::FPToSI:
            return mask(builder, builder.CreateFPToSI(input, target), bits);
        case llvm::Instruction::BitCast: {
            if (illegalResult) {
                // <k x iE> -> iN: element j holds bits [j*E, (j+1)*E).
                auto *vector = llvm::cast<llvm::FixedVectorType>(sourceType);
                const unsigned elementBits = scalarBits(vector);
                llvm::Value *result = llvm::ConstantInt::get(target, 0);
                for (unsigned index = 0; index < vector->getNumElements(); ++index) {
                    llvm::Value *element =
                        builder.CreateZExt(builder.CreateExtractElement(source, index), target);
                    result =
                        builder.CreateOr(result, builder.CreateShl(element, index * elementBits));
                }
                return result;
            }
            auto *vector = llvm::cast<llvm::FixedVectorType>(type);
            const unsigned elementBits = scalarBits(vector);
            llvm::Value *result = llvm::PoisonValue::get(vector);
            for (unsigned index = 0; index < vector->getNumElements(); ++index) {
                llvm::Value *element = builder.CreateTrunc(
                    builder.CreateLShr(input, index * elementBits), vector->getElementType());
                result = builder.CreateInsertElement(result, element, index);
            }
            return result;
        }
        default:
            break;
        }
    }
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(&instruction)) {
        llvm::PHINode *carrier = builder.CreatePHI(promotedType(type), phi->getNumIncomingValues());
        phis_.emplace_back(phi, carrier);
        return carrier;
    }
    if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction))
        return builder.CreateSelect(select->getCondition(), promoted(select->getTrueValue()),
                                    promoted(select->getFalseValue()));
    if (auto *freeze = llvm::dyn_cast<llvm::FreezeInst>(&instruction))
        return builder.CreateFreeze(promoted(freeze->getOperand(0)));
    if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) {
        llvm::Value *left = promoted(intrinsic->getArgOperand(0));
        llvm::Value *right = promoted(intrinsic->getArgOperand(1));
        const llvm::Intrinsic::ID id = intrinsic->getIntrinsicID();
        if (id == llvm::Intrinsic::umin || id == llvm::Intrinsic::umax)
            return builder.CreateBinaryIntrinsic(id, left, right);
        return mask(builder,
                    builder.CreateBinaryIntrinsic(id, signExtendInRegister(builder, left, bits),
                                                  signExtendInRegister(builder, right, bits)),
                    bits);
    }
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
        return rewriteLoad(*load);
    if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) {
        rewriteStore(*store);
        return nullptr; // erased, no uses
    }
    if (auto *switchInst = llvm::dyn_cast<llvm::SwitchInst>(&instruction)) {
        llvm::Type *carrier = promotedType(switchInst->getCondition()->getType());
        switchInst->setCondition(promoted(switchInst->getCondition()));
        for (auto caseHandle : switchInst->cases())
            caseHandle.setValue(llvm::ConstantInt::get(
                switchInst->getContext(),
                caseHandle.getCaseValue()->getValue().zext(scalarBits(carrier))));
        return switchInst;
    }
    if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction)) {
        // Indices are sign-extended to the pointer width.
        for (llvm::Use &index : gep->indices())
            if (isIllegalIntOrVector(index->getType()))
                index.set(signExtendInRegister(builder, promoted(index.get()),
                                               scalarBits(index->getType())));
        return gep;
    }
    return nullptr;
}

void WidthLegalizer::rewrite() {
    // Reverse post-order visits a definition before every use except through
    // phis, whose incoming values are filled in at the end.
    std::vector<llvm::Instruction *> work;
    llvm::ReversePostOrderTraversal<llvm::Function *> order(&function_);
    for (llvm::BasicBlock *block : order)
        for (llvm::Instruction &instruction : *block)
            work.push_back(&instruction);

    std::vector<llvm::Instruction *> dead;
    for (llvm::Instruction *instruction : work) {
        bool touches = isIllegalIntOrVector(instruction->getType());
        for (const llvm::Value *operand : instruction->operands())
            touches |= isIllegalIntOrVector(operand->getType());
        if (!touches)
            continue;
        llvm::Value *replacement = rewriteInstruction(*instruction);
        if (replacement == instruction)
            continue; // changed in place
        if (isIllegalIntOrVector(instruction->getType()))
            promoted_[instruction] = replacement;
        else if (replacement)
            instruction->replaceAllUsesWith(replacement);
        dead.push_back(instruction);
    }
    for (auto &[old, carrier] : phis_)
        for (unsigned index = 0; index < old->getNumIncomingValues(); ++index)
            carrier->addIncoming(promoted(old->getIncomingValue(index)),
                                 old->getIncomingBlock(index));

    // Old instructions only use each other now; cut the references first so
    // that the order of erasure does not matter.
    for (llvm::Instruction *instruction : dead)
        instruction->dropAllReferences();
    for (llvm::Instruction *instruction : dead) {
        instruction->replaceAllUsesWith(llvm::PoisonValue::get(instruction->getType()));
        instruction->eraseFromParent();
    }
    // Bit casts to iN* that only fed the rewritten loads and stores.
    std::vector<llvm::Instruction *> casts;
    for (llvm::Instruction &instruction : llvm::instructions(function_))
        if (llvm::isa<llvm::BitCastInst>(instruction) && instruction.use_empty())
            casts.push_back(&instruction);
    for (llvm::Instruction *cast : casts)
        llvm::RecursivelyDeleteTriviallyDeadInstructions(cast);
}

} // namespace

llvm::Type *findIllegalIntegerType(const llvm::Function &function) {
    if (llvm::Type *type = illegalIn(function.getFunctionType()))
        return type;
    for (const llvm::Instruction &instruction : llvm::instructions(function)) {
        if (llvm::Type *type = illegalIn(instruction.getType()))
            return type;
        for (const llvm::Value *operand : instruction.operands())
            if (llvm::Type *type = illegalIn(operand->getType()))
                return type;
        if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
            if (llvm::Type *type = illegalIn(alloca->getAllocatedType()))
                return type;
        if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&instruction))
            if (llvm::Type *type = illegalIn(gep->getSourceElementType()))
                return type;
    }
    return nullptr;
}

std::string legalizeIntegerWidths(llvm::Function &function) {
    if (function.isDeclaration() || !findIllegalIntegerType(function))
        return "";
    // Unreachable code may use values in ways reverse post-order cannot see.
    llvm::removeUnreachableBlocks(function);
    demoteWideIntegers(function);
    if (!findIllegalIntegerType(function))
        return "";
    WidthLegalizer legalizer(function);
    std::string reason = legalizer.check();
    if (!reason.empty())
        return reason;
    legalizer.rewrite();
    if (llvm::Type *left = findIllegalIntegerType(function)) {
        std::string text;
        llvm::raw_string_ostream out(text);
        left->print(out);
        return "integer type " + out.str() + " remains after legalisation";
    }
    return "";
}

void removeUnusedIllegalDeclarations(llvm::Module &module) {
    std::vector<llvm::Function *> unused;
    for (llvm::Function &function : module)
        if (function.isDeclaration() && function.use_empty() &&
            illegalIn(function.getFunctionType()))
            unused.push_back(&function);
    for (llvm::Function *function : unused)
        function->eraseFromParent();
}

llvm::PreservedAnalyses IntegerWidthPass::run(llvm::Function &function,
                                              llvm::FunctionAnalysisManager &) {
    if (!firstProblem->empty() || !findIllegalIntegerType(function))
        return llvm::PreservedAnalyses::all();
    std::string reason = legalizeIntegerWidths(function);
    if (!reason.empty())
        *firstProblem = "function '" + function.getName().str() + "': " + reason;
    return llvm::PreservedAnalyses::none();
}

} // namespace imex_l0::compiler
