// Walks an LLVM type and everything it is made of: array and vector elements,
// struct members, function signatures, and the pointee of a typed pointer (an
// i24* is an OpTypePointer to a 24-bit integer in SPIR-V). Both the
// legalisation and the translator screen ask "does this type mention X".
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/DerivedTypes.h>

namespace imex_l0::compiler {

// Whether `matches` holds for `type` or a type it is made of. `seen` holds the
// types visited so far (each is visited once: structs can be recursive); a
// caller may share it across calls that stop at the first match.
inline bool mentionsType(llvm::Type *type, llvm::function_ref<bool(llvm::Type *)> matches,
                         llvm::SmallPtrSetImpl<llvm::Type *> &seen) {
    if (!type || !seen.insert(type).second)
        return false;
    if (matches(type))
        return true;
    if (auto *pointer = llvm::dyn_cast<llvm::PointerType>(type))
        return !pointer->isOpaque() &&
               mentionsType(pointer->getNonOpaquePointerElementType(), matches, seen);
    for (llvm::Type *contained : type->subtypes())
        if (mentionsType(contained, matches, seen))
            return true;
    return false;
}

} // namespace imex_l0::compiler
