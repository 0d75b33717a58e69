// Building a builtin's body element by element: the GPU's instructions are
// scalar, and OpenCL's builtins take scalars and vectors alike. Shared by
// the translation's builtin definitions (faster_builtins.cpp,
// exact_float_builtins.cpp, relaxed_inverse_trig.cpp, missing_builtins.cpp,
// native_math.cpp, libdevice_math.cpp).
#pragma once

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>

#include <vector>

namespace ze_cuda {

// How many elements a value of `type` has: a vector's, or one.
inline unsigned elementCount(llvm::Type *type) {
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    return vector ? vector->getNumElements() : 1;
}

// Element e of a vector, or the scalar itself.
inline llvm::Value *laneOf(llvm::IRBuilder<> &b, llvm::Value *v, unsigned e) {
    return v->getType()->isVectorTy() ? b.CreateExtractElement(v, e) : v;
}

// The value of `type` (a vector, or a scalar) whose element e is lane(e).
template <class Lane> llvm::Value *fromLanes(llvm::IRBuilder<> &b, llvm::Type *type, Lane lane) {
    if (!type->isVectorTy())
        return lane(0u);
    llvm::Value *v = llvm::PoisonValue::get(type);
    for (unsigned e = 0; e < elementCount(type); ++e)
        v = b.CreateInsertElement(v, lane(e), e);
    return v;
}

// A scalar argument widened to the vector `type` (clamp(gentype, sgentype,
// sgentype): scalar bounds of a vector), or the value as it is.
inline llvm::Value *widenTo(llvm::IRBuilder<> &b, llvm::Value *v, llvm::Type *type) {
    return v->getType() == type
               ? v
               : b.CreateVectorSplat(llvm::cast<llvm::VectorType>(type)->getElementCount(), v);
}

// Defines `f` (a builtin's declaration, scalar or vector) as calls of the
// scalar function `scalar`, lane by lane: each call takes every vector
// argument's lane and every scalar argument whole (ldexp(float4, int)).
inline void defineByScalarCalls(llvm::Function &f, llvm::FunctionCallee scalar) {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(f.getContext(), "", &f));
    b.CreateRet(fromLanes(b, f.getReturnType(), [&](unsigned e) {
        std::vector<llvm::Value *> args;
        for (llvm::Argument &a : f.args())
            args.push_back(laneOf(b, &a, e));
        return b.CreateCall(scalar, args);
    }));
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
}

} // namespace ze_cuda
