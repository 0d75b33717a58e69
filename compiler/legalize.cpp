// optimizeAndLegalize: an optimisation pipeline chosen for SPIR-V consumers,
// followed by the legalisation passes of legalize_passes.hpp.
//
// The pipeline per level (what a device compiler gets, and why):
//   -O0   clang's -O0 pipeline (always-inline only): the code as written.
//   -O1,  always-inline, then per function mem2reg (values out of allocas),
//   -O2   EarlyCSE (redundant and dead values), SimplifyCFG (empty and
//   (the  unreachable blocks), then GlobalDCE (helpers no kernel calls any
//   default) more). This is what a SPIR-V consumer needs: values, not stack
//         slots, and no dead code. The device compiler optimises again for
//         its own device (SROA, InstCombine, inlining, unrolling,
//         vectorisation), which is where those belong: each pass here is
//         paid again in the translator, the validator and the driver.
//         docs/compiler.md has what each pass costs and saves; LLVM's full
//         -O2 costs about 4x as much and makes the SPIR-V larger, not better.
//   -O3   LLVM's full -O3 pipeline, for consumers that optimise little.
//
// Link requirements of the legalize*.cpp files (globbed into the compiler
// library):
//   - imex_l0_llvm: the shared libLLVM-15 (Passes, IR, Linker, TransformUtils);
//   - SPIRV-Tools for validateSpirv (legalize_validate.cpp): the Debian package
//     ships only static archives; they are position-independent (no
//     R_X86_64_32/32S relocations), so they link into the shared library:
//     find_package(SPIRV-Tools CONFIG) and SPIRV-Tools-static, with
//     LINKER:--exclude-libs,ALL so none of its symbols is exported.
//
// Why legalisation must come before writeSpirv, not after: translator 15 does
// not return its errors. On anything it cannot translate (freeze, an i2) it
// prints a message and calls exit() with the error code, ending the process
// that embeds the compiler. optimizeAndLegalize therefore refuses (returns a
// message) rather than pass on a module with a shape it knows the translator
// dies on.
#include "legalize.hpp"

#include "bit_select.hpp"
#include "legalize_passes.hpp"

#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>

#include <memory>
#include <vector>

namespace imex_l0::compiler {
namespace {

// SPIR has no LLVM target in LLVM 15, so there is no TargetMachine: the
// pipeline runs with the default target answers, as clang's own -O<n> does for
// spir64, except for two target facts.
//   - Lookup tables: none (see legalize_target_info.cpp).
//   - Native integer widths: spir64's data layout has no "n" entry, so every
//     width counts as equally (il)legal and InstCombine / SimplifyCFG narrow
//     values to i2 or i31. "n8:16:32:64" is what the upstream SPIR-V backend
//     declares; with it those passes keep to widths SPIR-V has. It changes no
//     type size or alignment, and the module gets its original layout back.
//
// The legalisation passes run in the same pass manager, after the optimiser:
// freeze removal, vector select conditions, memmove lowering, integer widths,
// duplicate phi edges, and block order last of all (the passes before it add
// blocks). Returns the first integer-width problem, or "".
std::string runPipeline(llvm::Module &module, unsigned optLevel) {
    const std::string originalLayout = module.getDataLayoutStr();
    if (originalLayout.find("-n") == std::string::npos && originalLayout.rfind("n", 0) != 0)
        module.setDataLayout(originalLayout.empty() ? std::string("n8:16:32:64")
                                                    : originalLayout + "-n8:16:32:64");

    llvm::LoopAnalysisManager loopAnalyses;
    llvm::FunctionAnalysisManager functionAnalyses;
    llvm::CGSCCAnalysisManager cgsccAnalyses;
    llvm::ModuleAnalysisManager moduleAnalyses;

    // As clang -cc1 -O<n>: unrolling from -O2 on; no vectorisers (the clang
    // driver adds those flags, the device compiler vectorises for the device).
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = optLevel > 1;
    tuning.LoopInterleaving = false;
    tuning.LoopVectorization = false;
    tuning.SLPVectorization = false;
    llvm::PassBuilder builder(nullptr, tuning);
    addBitSelect(builder);

    // There is no C library on the device: the optimiser must not turn code
    // into calls to memcpy/puts/... that the device cannot resolve.
    llvm::TargetLibraryInfoImpl libraryInfo{llvm::Triple(module.getTargetTriple())};
    libraryInfo.disableAllFunctions();
    functionAnalyses.registerPass([&] { return llvm::TargetLibraryAnalysis(libraryInfo); });
    functionAnalyses.registerPass([] { return spirTargetAnalysis(); });

    builder.registerModuleAnalyses(moduleAnalyses);
    builder.registerCGSCCAnalyses(cgsccAnalyses);
    builder.registerFunctionAnalyses(functionAnalyses);
    builder.registerLoopAnalyses(loopAnalyses);
    builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses, moduleAnalyses);

    llvm::ModulePassManager passes;
    if (optLevel == 0) {
        passes = builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
        // The helpers no kernel calls (internal: whole_program.hpp) go, as at
        // every other level: a program of helpers alone is then an empty
        // module, which is valid SPIR-V, where a module of functions without
        // an entry point or an export is not.
        passes.addPass(llvm::GlobalDCEPass());
    } else if (optLevel >= 3) {
        passes = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    } else {
        passes.addPass(llvm::AlwaysInlinerPass());
        llvm::FunctionPassManager cleanup;
        cleanup.addPass(llvm::PromotePass());
        cleanup.addPass(llvm::EarlyCSEPass());
        cleanup.addPass(llvm::SimplifyCFGPass());
        passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(cleanup)));
        passes.addPass(llvm::GlobalDCEPass());
    }
    std::string widthProblem;
    llvm::FunctionPassManager legalization;
    legalization.addPass(RemoveFreezePass());
    legalization.addPass(VectorSelectConditionPass());
    legalization.addPass(MemMoveLoweringPass());
    legalization.addPass(IntegerWidthPass(&widthProblem));
    legalization.addPass(DuplicateEdgeSplitPass());
    legalization.addPass(EntryAllocasFirstPass());
    // The translator puts loops into simplified form itself (it needs their
    // preheaders and exits for loop metadata), and LoopSimplify places the
    // blocks it adds wherever it splits an edge, before their dominators at
    // times: done here, so that the block order below includes them.
    legalization.addPass(llvm::LoopSimplifyPass());
    legalization.addPass(DominatorBlockOrderPass());
    passes.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(legalization)));
    passes.run(module, moduleAnalyses);

    module.setDataLayout(originalLayout);
    return widthProblem;
}

std::string describe(const llvm::Type *type) {
    std::string text;
    llvm::raw_string_ostream out(text);
    type->print(out);
    return out.str();
}

// Whether any value of the module has an opaque pointer type. Asked of the
// values, not of LLVMContext::supportsTypedPointers(): a module without any
// pointer leaves the context undecided, and asking would decide it for
// opaque pointers, so that later typed pointers could not be created.
bool usesOpaquePointers(const llvm::Module &module) {
    auto opaque = [](const llvm::Type *type) { return type->getScalarType()->isOpaquePointerTy(); };
    for (const llvm::GlobalValue &global : module.global_values())
        if (opaque(global.getType()))
            return true;
    for (const llvm::Function &function : module)
        for (const llvm::BasicBlock &block : function)
            for (const llvm::Instruction &instruction : block) {
                if (opaque(instruction.getType()))
                    return true;
                for (const llvm::Value *operand : instruction.operands())
                    if (opaque(operand->getType()))
                        return true;
            }
    return false;
}

} // namespace

std::string optimizeAndLegalize(llvm::Module &module, unsigned optLevel, bool *retryUnoptimized) {
    if (retryUnoptimized)
        *retryUnoptimized = false;
    if (optLevel > 3)
        optLevel = 3;
    // Two inputs the translator would die on (see the top of this file).
    const llvm::Triple triple(module.getTargetTriple());
    if (triple.getArch() != llvm::Triple::spir && triple.getArch() != llvm::Triple::spir64)
        return "the module's target is '" + module.getTargetTriple() + "', not spir or spir64";
    if (usesOpaquePointers(module))
        return "the module uses opaque pointers, which translator 15 cannot translate "
               "(compile with -no-opaque-pointers)";
    std::string widthProblem = runPipeline(module, optLevel);
    if (!widthProblem.empty()) {
        if (retryUnoptimized)
            *retryUnoptimized = optLevel > 0;
        return widthProblem;
    }
    removeUnusedIllegalDeclarations(module);

    for (const llvm::Function &function : module) {
        if (llvm::Type *type = findIllegalIntegerType(function))
            return "function '" + function.getName().str() + "': integer type " + describe(type) +
                   " has no SPIR-V equivalent";
    }
    std::string problems;
    llvm::raw_string_ostream out(problems);
    if (llvm::verifyModule(module, &out))
        return "the optimised module is not valid LLVM IR: " + out.str();
    return "";
}

} // namespace imex_l0::compiler
