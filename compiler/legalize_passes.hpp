// The legalisation passes run between the optimisation pipeline and
// LLVMSPIRVLib 15's writeSpirv. Each one removes one IR shape that translator
// 15 rejects or mistranslates; none of them changes what the program computes.
// Private to the compiler: legalize.hpp is the interface.
#pragma once

#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/PassManager.h>

#include <string>

namespace llvm {
class Function;
class Module;
class Type;
} // namespace llvm

namespace imex_l0::compiler {

// The TargetTransformInfo the optimisation pipeline uses for SPIR: the default
// answers, except that switches are not turned into lookup tables (see
// legalize_target_info.cpp). Registered before PassBuilder's own analyses.
llvm::TargetIRAnalysis spirTargetAnalysis();

// Replaces every `freeze` with its operand. Translator 15 has no translation
// for freeze (SPIRV-LLVM-Translator issue 1140, fixed in 16 the same way);
// see legalize_freeze.cpp for why this keeps the program's meaning.
struct RemoveFreezePass : llvm::PassInfoMixin<RemoveFreezePass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
    static bool isRequired() { return true; } // also on optnone (-O0) functions
    static bool removeFreeze(llvm::Function &function);
};

// Deletes unreachable blocks and lays out the remaining ones in reverse
// post-order, so that every block follows its dominator. Translator 15 emits
// blocks in IR order and produces invalid SPIR-V ("Block ... appears before its
// dominator", "ID ... has not been defined") otherwise (translator issue 205).
// Must run last: any later CFG change may break the order again.
struct DominatorBlockOrderPass : llvm::PassInfoMixin<DominatorBlockOrderPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
    static bool isRequired() { return true; } // also on optnone (-O0) functions
    static bool orderBlocks(llvm::Function &function);
};

// Gives `select` on vectors a vector condition: SPIR-V before 1.4 has no
// OpSelect of vectors on one scalar condition, and translator 15 emits it.
// SPIR-V requires a function's OpVariables to be the first instructions of
// its first block, and translator 15 writes an alloca where it finds it:
// InstCombine can leave a cast between two entry-block allocas. Moves every
// alloca of constant size in the entry block to the top of it (legal: its
// only operand is a constant).
struct EntryAllocasFirstPass : llvm::PassInfoMixin<EntryAllocasFirstPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
    static bool isRequired() { return true; }
};

struct VectorSelectConditionPass : llvm::PassInfoMixin<VectorSelectConditionPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
    static bool isRequired() { return true; } // also on optnone (-O0) functions
    static bool splatConditions(llvm::Function &function);
};

// Lowers llvm.memmove before translator 15 does it with a temporary variable
// declared outside the entry block (invalid SPIR-V); see legalize_memmove.cpp.
struct MemMoveLoweringPass : llvm::PassInfoMixin<MemMoveLoweringPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
    static bool isRequired() { return true; } // also on optnone (-O0) functions
    static bool lowerMemMoves(llvm::Function &function);
};

// Routes repeated edges from one block to a phi-carrying block (switch cases
// with the same target) through a new block, so that each OpPhi names each
// parent block once, as SPIR-V requires; see legalize_phi_edges.cpp.
struct DuplicateEdgeSplitPass : llvm::PassInfoMixin<DuplicateEdgeSplitPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
    static bool isRequired() { return true; } // also on optnone (-O0) functions
    static bool splitDuplicateEdges(llvm::Function &function);
};

// SPIR-V integers are 8, 16, 32 or 64 bits wide (plus bool). Rewrites values
// of other widths (i2, i24, i31, ... created by optimisation) on the next legal
// width. Returns "" when the function is free of illegal widths afterwards,
// otherwise the reason (an instruction it does not know how to rewrite); the
// caller then falls back to a pipeline that does not create such widths.
std::string legalizeIntegerWidths(llvm::Function &function);

// Integer arithmetic wider than 64 bits whose results are only truncated to
// 64 bits or fewer (clang's 128-bit `long long` on SPIR) is done in 64 bits;
// legalizeIntegerWidths calls it first.
void demoteWideIntegers(llvm::Function &function);

// The pass form of legalizeIntegerWidths: records the first function it
// cannot legalise in *firstProblem ("function 'f': reason") and leaves the
// rest alone from then on (the caller discards the result).
struct IntegerWidthPass : llvm::PassInfoMixin<IntegerWidthPass> {
    explicit IntegerWidthPass(std::string *problem) : firstProblem(problem) {}
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
    static bool isRequired() { return true; } // also on optnone (-O0) functions
    std::string *firstProblem;
};

// Erases declarations (intrinsics such as llvm.smin.i24) that mention an
// illegal width and are no longer called after legalisation.
void removeUnusedIllegalDeclarations(llvm::Module &module);

// True for the integer widths SPIR-V can express (1, 8, 16, 32, 64).
bool isLegalSpirvIntWidth(unsigned bits);

// The first integer type of an illegal width used by an instruction, an
// operand or the signature of `function`, or nullptr when there is none.
llvm::Type *findIllegalIntegerType(const llvm::Function &function);

} // namespace imex_l0::compiler
