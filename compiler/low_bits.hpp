// Integer operations whose low n bits depend only on the low n bits of their
// operands, whatever n: add, sub, mul, and, or, xor. A chain of them computes
// the same low bits at any width at least n, which rewrites that change the
// width of such chains rely on: demoteWideIntegers (i128 arithmetic done in
// i64, legalize_wide_integers.cpp) and the CUDA backend's 8- and 16-bit
// arithmetic done in 32-bit registers (driver/cuda/wide_integers.hpp). A
// left shift's low bits also follow its first operand's, for an amount
// below n: each rewrite checks its amount itself.
#pragma once

#include <llvm/IR/Instruction.h>

namespace imex_l0::compiler {

inline bool lowBitsFollowOperands(unsigned opcode) {
    switch (opcode) {
    case llvm::Instruction::Add:
    case llvm::Instruction::Sub:
    case llvm::Instruction::Mul:
    case llvm::Instruction::And:
    case llvm::Instruction::Or:
    case llvm::Instruction::Xor:
        return true;
    default:
        return false;
    }
}

} // namespace imex_l0::compiler
