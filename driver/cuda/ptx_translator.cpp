#include "ptx_translator.hpp"

#include "bit_select.hpp"

#include "condition_registers.hpp"
#include "declared_builtins.hpp"
#include "exact_float_builtins.hpp"
#include "exact_index_sums.hpp"
#include "faster_builtins.hpp"
#include "image_builtins.hpp"
#include "index_offsets.hpp"
#include "inline_program.hpp"
#include "launch_value_builtins.hpp"
#include "launch_values.hpp"
#include "libdevice_math.hpp"
#include "loop_versioning.hpp"
#include "lsr_fences.hpp"
#include "missing_builtins.hpp"
#include "native_math.hpp"
#include "opencl_division.hpp"
#include "pure_calls.hpp"
#include "relaxed_inverse_trig.hpp"
#include "shared_variables.hpp"
#include "state_space_aa.hpp"
#include "uniform_unswitch.hpp"
#include "unroll_hints.hpp"
#include "vector_loads.hpp"
#include "warp_sub_groups.hpp"
#include "wide_integers.hpp"

#include "contained.hpp"
#include "spirv_translator.hpp"
#include "work_group_collectives.hpp"

#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <set>

namespace ze_cuda {

namespace {

using ze_driver::KernelInfo;

constexpr unsigned kSpirLocal = 3;
constexpr const char *kTriple = "nvptx64-nvidia-cuda";
// The newest GPU and PTX version LLVM 15 knows; the CUDA driver compiles
// PTX 7.5 for any later GPU (sm_90 included) when it loads the module.
constexpr const char *kCpu = "sm_80";
constexpr const char *kFeatures = "+ptx75";
// The most work-items of a CUDA block on every GPU the PTX target runs on.
constexpr unsigned kMaxGroupItems = 1024;

} // namespace

const char *ptxSignature() {
    // The convention's version: raised whenever kernelParameters changes.
    return "PTX nvptx64-nvidia-cuda sm_80 +ptx75, __local arguments as offsets, launch values "
           "(convention 2)";
}

namespace {

const llvm::Target *nvptxTarget(std::string *error) {
    static std::once_flag once;
    std::call_once(once, [] {
        LLVMInitializeNVPTXTargetInfo();
        LLVMInitializeNVPTXTarget();
        LLVMInitializeNVPTXTargetMC();
        LLVMInitializeNVPTXAsmPrinter();
    });
    return llvm::TargetRegistry::lookupTarget(kTriple, *error);
}

// A kernel's parameters on this backend: each __local pointer argument is a
// 64-bit byte offset into the dynamic shared memory, which the launch sizes
// to hold them all (the argument's pointer is rebuilt from the offset at the
// kernel's entry, after the kernel's own variables where those were placed
// there: shared_variables.hpp), and the launch values follow the arguments,
// 32-bit parameters (launch_values.hpp), which the kernel's entry stores
// where the work-item builtins find them (launch_value_builtins.hpp). Other
// arguments and the body move to the new function unchanged.
void kernelParameters(llvm::Module &module) {
    std::vector<llvm::Function *> kernels;
    for (llvm::Function &f : module)
        if (!f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
            kernels.push_back(&f);
    llvm::LLVMContext &ctx = module.getContext();
    llvm::Type *i8 = llvm::Type::getInt8Ty(ctx);
    llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
    llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
    for (llvm::Function *kernel : kernels) {
        // Where the __local arguments begin: after the kernel's own
        // variables where those were placed in the dynamic shared memory.
        const uint64_t argumentsAt = placeSharedVariables(*kernel);
        llvm::FunctionType *type = kernel->getFunctionType();
        bool hasLocal = false;
        std::vector<llvm::Type *> params;
        for (llvm::Type *param : type->params()) {
            bool local = param->isPointerTy() && param->getPointerAddressSpace() == kSpirLocal;
            hasLocal = hasLocal || local;
            params.push_back(local ? i64 : param);
        }
        const unsigned numArgs = static_cast<unsigned>(params.size());
        params.insert(params.end(), LaunchValues::kCount, i32);
        llvm::Constant *arguments = nullptr;
        if (hasLocal) {
            llvm::GlobalVariable &shared = dynamicSharedMemory(module);
            arguments = argumentsAt == 0
                            ? &shared
                            : llvm::ConstantExpr::getInBoundsGetElementPtr(
                                  i8, &shared, llvm::ConstantInt::get(i64, argumentsAt));
        }
        auto *replacement =
            llvm::Function::Create(llvm::FunctionType::get(type->getReturnType(), params, false),
                                   kernel->getLinkage(), kernel->getAddressSpace(), "", &module);
        replacement->copyAttributesFrom(kernel);
        replacement->setCallingConv(kernel->getCallingConv());
        replacement->getBasicBlockList().splice(replacement->begin(), kernel->getBasicBlockList());
        llvm::IRBuilder<> b(&*replacement->getEntryBlock().getFirstInsertionPt());
        for (unsigned i = 0; i < numArgs; ++i) {
            llvm::Argument *from = kernel->getArg(i), *to = replacement->getArg(i);
            to->takeName(from);
            if (params[i] == from->getType()) {
                from->replaceAllUsesWith(to);
                continue;
            }
            // Attributes of a pointer (noalias, align) do not hold for an offset.
            replacement->removeParamAttrs(i, llvm::AttributeFuncs::typeIncompatible(i64));
            from->replaceAllUsesWith(b.CreateInBoundsGEP(i8, arguments, to));
        }
        storeLaunchValues(*replacement, numArgs);
        replacement->takeName(kernel);
        kernel->replaceAllUsesWith(replacement);
        kernel->eraseFromParent();
    }
}

// Calling conventions: kernels are PTX kernels, everything else (the
// module's functions and libclc's) uses the C convention.
void nvptxCallingConventions(llvm::Module &module) {
    for (llvm::Function &f : module) {
        f.setCallingConv(f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL
                             ? llvm::CallingConv::PTX_Kernel
                             : llvm::CallingConv::C);
        for (llvm::BasicBlock &block : f)
            for (llvm::Instruction &instruction : block)
                if (auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
                    call->setCallingConv(llvm::CallingConv::C);
    }
}

// The translator's module (typed pointers: translator 15 asserts on atomics
// and images with opaque ones) in a context with opaque pointers, as libclc
// is built: through bitcode, whose reader upgrades the pointers.
std::unique_ptr<llvm::Module> withOpaquePointers(const llvm::Module &typed,
                                                 llvm::LLVMContext &context, std::string *log) {
    llvm::SmallVector<char, 0> bitcode;
    llvm::raw_svector_ostream os(bitcode);
    llvm::WriteBitcodeToFile(typed, os);
    auto read = llvm::parseBitcodeFile(
        llvm::MemoryBufferRef(llvm::StringRef(bitcode.data(), bitcode.size()), "spirv"), context);
    if (!read) {
        *log += "PTX translation: the module does not reload with opaque pointers: " +
                llvm::toString(read.takeError()) + "\n";
        return nullptr;
    }
    return std::move(*read);
}

// SPIR address spaces to NVPTX's, on the module's text: with opaque pointers
// an address space is only a type's spelling, and reparsing retypes every
// value, constant and signature at once. Generic (4) becomes 0 and constant
// (2) becomes global (1): a __constant pointer argument holds a USM address,
// which NVPTX's constant space (4, the constant bank) cannot reach; a cast that is then between two
// equal spaces (private and generic are both 0 on NVPTX) becomes a bitcast.
std::unique_ptr<llvm::Module> remapAddressSpaces(const llvm::Module &module,
                                                 llvm::LLVMContext &context, std::string *log) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os, nullptr);
    os.flush();
    auto replaceAll = [&](const std::string &from, const std::string &to) {
        for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at))
            text.replace(at, from.size(), to), at += to.size();
    };
    replaceAll(" addrspace(4)", "");
    replaceAll(" addrspace(2)", " addrspace(1)");
    static const std::regex sameSpaceCast(
        R"(addrspacecast(\s*\(?\s*)ptr ([^ ,()]+) to ptr(?! addrspace))");
    text = std::regex_replace(text, sameSpaceCast, "bitcast$1ptr $2 to ptr");
    llvm::SMDiagnostic error;
    std::unique_ptr<llvm::Module> remapped = llvm::parseAssemblyString(text, error, context);
    if (!remapped) {
        std::string message;
        llvm::raw_string_ostream ms(message);
        error.print("spirv", ms);
        *log +=
            "PTX translation: the module did not survive its address-space remapping: " + ms.str() +
            "\n";
    }
    return remapped;
}

// The OpenCL 2.0 work-item builtins libclc-15's NVPTX library lacks, from
// the ones it has: get_local_linear_id, get_global_linear_id (the global
// offset left out, as OpenCL says), get_enqueued_local_size (groups are
// uniform: the local size) and get_work_dim (Level Zero launches have no
// dimension count: the highest dimension whose global size is above one, as
// Intel's driver reports it). Runs before defineLaunchValueBuiltins, which
// then defines the get_global_id, get_global_offset and get_global_size
// these call.
void workItemBuiltins(llvm::Module &module) {
    llvm::LLVMContext &ctx = module.getContext();
    llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);
    llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
    auto define = [&](const char *name, auto body) { defineDeclared(module, name, body); };
    auto call = [&](llvm::IRBuilder<> &b, const char *name, unsigned d) -> llvm::Value * {
        llvm::FunctionCallee callee =
            module.getOrInsertFunction(name, llvm::FunctionType::get(i64, {i32}, false));
        llvm::cast<llvm::Function>(callee.getCallee())
            ->setCallingConv(llvm::CallingConv::SPIR_FUNC);
        llvm::CallInst *c = b.CreateCall(callee, {b.getInt32(d)});
        c->setCallingConv(llvm::CallingConv::SPIR_FUNC);
        return c;
    };
    // x + size_x * (y + size_y * z) of the ids and sizes `id(d)`, `size(d)`.
    auto linear = [&](llvm::IRBuilder<> &b, auto id, const char *size) {
        llvm::Value *z = id(b, 2u);
        llvm::Value *yz = b.CreateAdd(id(b, 1u), b.CreateMul(call(b, size, 1), z));
        return b.CreateAdd(id(b, 0u), b.CreateMul(call(b, size, 0), yz));
    };
    define("_Z19get_local_linear_idv", [&](llvm::IRBuilder<> &b, llvm::Function *) {
        return linear(
            b, [&](llvm::IRBuilder<> &bb, unsigned d) { return call(bb, "_Z12get_local_idj", d); },
            "_Z14get_local_sizej");
    });
    define("_Z20get_global_linear_idv", [&](llvm::IRBuilder<> &b, llvm::Function *) {
        return linear(
            b,
            [&](llvm::IRBuilder<> &bb, unsigned d) {
                return bb.CreateSub(call(bb, "_Z13get_global_idj", d),
                                    call(bb, "_Z17get_global_offsetj", d));
            },
            "_Z15get_global_sizej");
    });
    define("_Z23get_enqueued_local_sizej", [&](llvm::IRBuilder<> &b, llvm::Function *f) {
        llvm::FunctionCallee size = module.getOrInsertFunction(
            "_Z14get_local_sizej", llvm::FunctionType::get(i64, {i32}, false));
        llvm::CallInst *c = b.CreateCall(size, {f->getArg(0)});
        c->setCallingConv(llvm::CallingConv::SPIR_FUNC);
        return c;
    });
    define("_Z12get_work_dimv", [&](llvm::IRBuilder<> &b, llvm::Function *) {
        llvm::Value *one = b.getInt64(1);
        llvm::Value *dims = b.CreateSelect(b.CreateICmpUGT(call(b, "_Z15get_global_sizej", 1), one),
                                           b.getInt32(2), b.getInt32(1));
        return b.CreateSelect(b.CreateICmpUGT(call(b, "_Z15get_global_sizej", 2), one),
                              b.getInt32(3), dims);
    });
}

// libclc's NVPTX library, read once; each translation parses it lazily into
// its own context and links only what the module calls.
const llvm::MemoryBuffer *libclc(std::string *log) {
    static std::once_flag once;
    static std::unique_ptr<llvm::MemoryBuffer> buffer;
    static std::string error;
    std::call_once(once, [] {
        auto read = llvm::MemoryBuffer::getFile(libclcPath());
        if (read)
            buffer = std::move(*read);
        else
            error = read.getError().message();
    });
    if (!buffer)
        *log += std::string("PTX translation: cannot read libclc's NVPTX library ") + libclcPath() +
                ": " + error +
                " (install libclc-15, or point ZE_CUDA_LIBCLC at nvptx64--nvidiacl.bc)\n";
    return buffer.get();
}

bool linkLibclc(llvm::Module &module, std::string *log) {
    const llvm::MemoryBuffer *library = libclc(log);
    if (!library)
        return false;
    auto lazy = llvm::getLazyBitcodeModule(library->getMemBufferRef(), module.getContext());
    if (!lazy) {
        *log +=
            "PTX translation: libclc's bitcode does not load: " + llvm::toString(lazy.takeError()) +
            "\n";
        return false;
    }
    (*lazy)->setDataLayout(module.getDataLayout());
    (*lazy)->setTargetTriple(module.getTargetTriple());
    genericPointerOverloads(module, **lazy);
    if (llvm::Linker::linkModules(module, std::move(*lazy), llvm::Linker::LinkOnlyNeeded)) {
        *log += "PTX translation: linking libclc failed\n";
        return false;
    }
    return true;
}

// Kernels that call an image builtin the library does not define
// (image_builtins.hpp: mipmapped and multisampled images), directly or
// through other functions, are left out of the module, with a line of the
// log each, so that the module's other kernels still build; `kernels` loses
// their metadata (zeKernelCreate then does not find them). When every
// kernel uses them nothing is left out: the build fails, naming the
// builtins (undefinedCalls).
void leaveOutImageKernels(llvm::Module &module, std::vector<KernelInfo> &kernels,
                          std::string *log) {
    std::set<llvm::Function *> reaching, kernelsOut;
    std::vector<llvm::Function *> work;
    for (llvm::Function &f : module)
        if (f.isDeclaration() && isImageBuiltin(f.getName()))
            work.push_back(&f);
    while (!work.empty()) {
        llvm::Function *f = work.back();
        work.pop_back();
        for (llvm::User *user : f->users()) {
            auto *call = llvm::dyn_cast<llvm::CallBase>(user);
            if (!call)
                continue;
            llvm::Function *caller = call->getFunction();
            if (reaching.insert(caller).second)
                work.push_back(caller);
        }
    }
    size_t all = 0;
    for (llvm::Function &f : module)
        all += !f.isDeclaration() && f.getCallingConv() == llvm::CallingConv::PTX_Kernel;
    for (llvm::Function *f : reaching)
        if (f->getCallingConv() == llvm::CallingConv::PTX_Kernel)
            kernelsOut.insert(f);
    if (kernelsOut.size() == all)
        return;
    for (llvm::Function *kernel : kernelsOut) {
        std::string name = kernel->getName().str();
        *log += "PTX translation: kernel " + name +
                " calls image builtins the CUDA backend does not define: it is left out of the "
                "module\n";
        kernels.erase(std::remove_if(kernels.begin(), kernels.end(),
                                     [&](const KernelInfo &k) { return k.name == name; }),
                      kernels.end());
        kernel->replaceAllUsesWith(llvm::UndefValue::get(kernel->getType()));
        reaching.erase(kernel);
        kernel->eraseFromParent();
    }
    // What only the left-out kernels called goes too, down to the image
    // builtins' declarations.
    for (bool erased = true; erased;) {
        erased = false;
        for (llvm::Function &f : llvm::make_early_inc_range(module))
            if (reaching.count(&f) && f.use_empty()) {
                reaching.erase(&f);
                f.eraseFromParent();
                erased = true;
            }
    }
}

// A call of a function nothing defines would fail in ptxas or at load time:
// named here instead.
std::string undefinedCalls(const llvm::Module &module) {
    std::set<std::string> names;
    for (const llvm::Function &f : module)
        // vprintf is the CUDA driver's (printfAsVprintf).
        if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty() && f.getName() != "vprintf")
            names.insert(f.getName().str());
    std::string message;
    for (const std::string &name : names)
        message += "PTX translation: " + name +
                   (isImageBuiltin(name)
                        ? " is an image builtin the CUDA backend does not define (mipmapped and "
                          "multisampled images)\n"
                        : " is called but neither the module nor libclc defines it\n");
    return message;
}

void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    // LLVM's -print-before/-print-after and friends (ze_cuda_ptx passes
    // them through): inert unless such an option is set.
    llvm::PassInstrumentationCallbacks instrumentation;
    llvm::StandardInstrumentations standard(/*DebugLogging=*/false);
    standard.registerCallbacks(instrumentation, &functions);
    llvm::PassBuilder builder(&machine, llvm::PipelineTuningOptions(), llvm::None,
                              &instrumentation);
    addLoopVersioning(builder); // before the unroll hints: a loop is versioned, then unrolled
    // Before the unswitching: its peephole pass drops marks the unswitching reads.
    addUnrollHints(builder);
    addUniformUnswitch(builder);
    imex_l0::compiler::addBitSelect(builder);
    addVectorLoads(builder);
    addIndexOffsets(builder);
    addExactIndexSums(builder); // after: the offsets share extensions it then widens
    addWideIntegers(builder);
    addLsrFences(builder); // after the widening: it sees the 32-bit chains
    addStateSpaceAA(builder, functions);
    addLaunchValues(builder);
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);
    llvm::ModulePassManager passes =
        builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    passes.run(module, modules);
}

bool emitPtx(llvm::Module &module, llvm::TargetMachine &machine, std::string &ptx,
             std::string *log) {
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream os(buffer);
    llvm::legacy::PassManager passes;
    if (!module.empty())
        keepComparisonsInPlace(machine, *module.begin());
    if (machine.addPassesToEmitFile(passes, os, nullptr, llvm::CGFT_AssemblyFile)) {
        *log += "PTX translation: the NVPTX backend cannot emit assembly\n";
        return false;
    }
    passes.run(module);
    ptx.assign(buffer.begin(), buffer.end());
    return true;
}

} // namespace

const char *libclcPath() {
    const char *fromEnvironment = std::getenv("ZE_CUDA_LIBCLC");
    return fromEnvironment && *fromEnvironment ? fromEnvironment : ZE_CUDA_LIBCLC_DEFAULT;
}

namespace {

std::mutex injectedMutex;    // guards injectedBuiltin
std::string injectedBuiltin; // fatalErrorOnBuiltin

// Everything after the SPIR-V reader, on its module: the translation's
// steps (ptx_translator.hpp) down to the PTX text.
ze_result_t lowerToPtx(ze_driver::detail::SpirvModule &read, llvm::LLVMContext &context,
                       const MathOptions &math, PtxModule *out, std::string *log) {
    // The functions the program defines, before any builtin is.
    const std::set<std::string> program = programFunctions(*read.module);
    // OpenCL C 2.0's work-group functions, which libclc-15 lacks (the same
    // definitions as the OpenCL backend's, sized for CUDA's work-groups).
    ze_driver::detail::defineWorkGroupCollectives(*read.module, kMaxGroupItems);
    resolveWarpSubGroupBuiltins(*read.module);
    std::unique_ptr<llvm::Module> opaque = withOpaquePointers(*read.module, context, log);
    if (!opaque || !linkImageBuiltins(*opaque, log))
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    std::string error;
    const llvm::Target *target = nvptxTarget(&error);
    if (!target) {
        *log += "PTX translation: LLVM has no NVPTX target: " + error + "\n";
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    std::unique_ptr<llvm::TargetMachine> machine(
        target->createTargetMachine(kTriple, kCpu, kFeatures, llvm::TargetOptions(), llvm::None));

    kernelParameters(*opaque);
    workItemBuiltins(*opaque);
    defineLaunchValueBuiltins(*opaque);
    nvptxCallingConventions(*opaque);
    std::unique_ptr<llvm::Module> module = remapAddressSpaces(*opaque, context, log);
    if (!module)
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    opaque.reset();
    module->setTargetTriple(kTriple);
    module->setDataLayout(machine->createDataLayout());
    // Before the program's floating-point operations get the build's flags
    // and OpenCL's division: these definitions' get them too.
    halfStores(*module);
    selectShuffles(*module);
    funnelRotates(*module);
    saturatingConversions(*module);
    shortGeometry(*module, math.unsafe);
    floatClamps(*module);
    selectSigns(*module);
    selectFdims(*module);
    quotientRemainders(*module);
    wideRemquos(*module);
    bitCopySigns(*module);
    exactLdexps(*module);
    relaxedInverseTrig(*module, math.unsafe);
    addFastMathFlags(*module, math);
    markOpenClDivisions(*module, math);
    printfAsVprintf(*module);
    missingAtomics(*module);
    highHalfProducts(*module);
    countTrailingZeros(*module);
    addressSpaceQueries(*module);
    fullWidthMul24(*module);
    minMaxClamp(*module);
    defineNativeMath(*module, math.unsafe || !math.correctlyRoundedDivide, math.unsafe);
    const std::string libdevice = libdevicePath();
    if (!libdevice.empty())
        defineFromLibdevice(*module, math.unsafe);
    // The program's own variables (defined here, global memory, not
    // internal) stay visible for zeModuleGetGlobalPointer; libclc's are not
    // linked yet.
    std::set<std::string> programVariables;
    for (const llvm::GlobalVariable &g : module->globals())
        if (!g.isDeclaration() && !g.hasLocalLinkage() && g.getAddressSpace() == 1 &&
            !g.getName().startswith("__ze_"))
            programVariables.insert(g.getName().str());
    std::string injected;
    {
        std::lock_guard<std::mutex> lock(injectedMutex);
        injected = injectedBuiltin;
    }
    llvm::Function *injectedCallee = injected.empty() ? nullptr : module->getFunction(injected);
    if (injectedCallee != nullptr && !injectedCallee->use_empty())
        llvm::report_fatal_error(("injected fatal error: " + injected).c_str(),
                                 /*gen_crash_diag=*/false);
    if (!linkLibclc(*module, log) ||
        (!libdevice.empty() && !linkLibdevice(*module, libdevice, math.flushDenormals, log)))
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    leaveOutImageKernels(*module, read.kernels, log);
    std::string undefined = undefinedCalls(*module);
    if (!undefined.empty()) {
        *log += undefined;
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    setMathAttributes(*module, math);
    // Only the kernels are entry points: libclc's and the module's helpers
    // may be inlined and dropped; the program's variables stay as they are.
    llvm::internalizeModule(*module, [&](const llvm::GlobalValue &value) {
        const auto *f = llvm::dyn_cast<llvm::Function>(&value);
        return (f && f->getCallingConv() == llvm::CallingConv::PTX_Kernel) ||
               value.getName() == kDynamicShared ||
               value.getName().startswith(sharedVariablesName("")) ||
               (llvm::isa<llvm::GlobalVariable>(value) &&
                programVariables.count(value.getName().str()));
    });
    std::string verifierMessage;
    llvm::raw_string_ostream verifierStream(verifierMessage);
    if (llvm::verifyModule(*module, &verifierStream)) {
        *log += "PTX translation produced invalid LLVM IR: " + verifierStream.str() + "\n";
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    mergePureCalls(*module);
    inlineProgramFunctions(*module, program);
    optimize(*module, *machine);
    dropUnreadLaunchValues(*module);
    lowerOpenClDivisions(*module, math);
    if (!emitPtx(*module, *machine, out->ptx, log))
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    out->kernels = std::move(read.kernels);
    return ZE_RESULT_SUCCESS;
}

// LLVM's warnings and errors during the translation go to the build log, not
// to the application's standard error. Remarks and notes are not kept, nor
// an unroll LLVM could not do where the translation asked for one
// (unroll_hints.hpp): no news to the user.
void keepDiagnosticsInTheLog(llvm::LLVMContext &context, std::string *log) {
    context.setDiagnosticHandlerCallBack(
        [](const llvm::DiagnosticInfo &info, void *out) {
            if (info.getSeverity() == llvm::DS_Remark || info.getSeverity() == llvm::DS_Note ||
                info.getKind() == llvm::DK_OptimizationFailure)
                return;
            std::string text;
            llvm::raw_string_ostream os(text);
            llvm::DiagnosticPrinterRawOStream printer(os);
            info.print(printer);
            os.flush();
            *static_cast<std::string *>(out) +=
                std::string("PTX translation: ") +
                llvm::LLVMContext::getDiagnosticMessagePrefix(info.getSeverity()) + ": " + text +
                "\n";
        },
        log);
}

// Reads the SPIR-V and lowers it (lowerToPtx) with LLVM's fatal errors and
// crashes contained (contained.hpp); with `onlyKernel`, the other kernels
// are dropped first. False when LLVM stopped, its message in `fatal`.
bool translateContained(const ze_driver::SpirvProgram &program, const MathOptions &math,
                        const std::string *onlyKernel, PtxModule *out, std::string *log,
                        ze_result_t *result, std::string *fatal) {
    ze_driver::detail::SpirvModule read;
    *result = ze_driver::detail::readSpirvModule(program, /*opaquePointers=*/false, &read, log);
    if (*result != ZE_RESULT_SUCCESS)
        return true;
    if (onlyKernel != nullptr) {
        for (llvm::Function &f : llvm::make_early_inc_range(*read.module))
            if (f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL && f.getName() != *onlyKernel)
                f.eraseFromParent();
    }
    // The rest runs in a context of its own, with opaque pointers (set before
    // the first pointer type, or the typed bitcode would decide).
    auto context = std::make_unique<llvm::LLVMContext>();
    context->setOpaquePointers(true);
    keepDiagnosticsInTheLog(*context, log);
    if (ze_driver::detail::runContained(
            [&] { *result = lowerToPtx(read, *context, math, out, log); }, fatal))
        return true;
    // What the stage was building is not safe to destroy: it stays, unreleased.
    (void)context.release();
    (void)read.module.release();
    (void)read.context.release();
    return false;
}

} // namespace

void fatalErrorOnBuiltin(const std::string &builtin) {
    std::lock_guard<std::mutex> lock(injectedMutex);
    injectedBuiltin = builtin;
}

ze_result_t translateSpirvToPtx(const ze_driver::SpirvProgram &program, PtxModule *out,
                                std::string *log, const MathOptions &math) {
    ze_result_t result;
    std::string fatal;
    if (translateContained(program, math, nullptr, out, log, &result, &fatal))
        return result;
    *log += "PTX translation: LLVM's code generation stopped" +
            (fatal.empty() ? std::string(" (it crashed)") : ": " + fatal) +
            "; the module is refused and the process goes on\n";
    // Which kernels it stopped on: each translated alone (a failure's cost
    // only), up to a limit.
    constexpr size_t kMostKernelsTried = 32;
    std::vector<std::string> names;
    {
        ze_driver::detail::SpirvModule read;
        std::string ignored;
        if (ze_driver::detail::readSpirvModule(program, false, &read, &ignored) ==
            ZE_RESULT_SUCCESS)
            for (const ze_driver::KernelInfo &k : read.kernels)
                names.push_back(k.name);
    }
    for (size_t i = 0; i < names.size() && i < kMostKernelsTried; ++i) {
        PtxModule alone;
        std::string aloneLog, aloneFatal;
        ze_result_t aloneResult;
        if (!translateContained(program, math, &names[i], &alone, &aloneLog, &aloneResult,
                                &aloneFatal))
            *log += "PTX translation: kernel " + names[i] + ": " +
                    (aloneFatal.empty() ? std::string("LLVM crashed") : aloneFatal) + "\n";
    }
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
}

} // namespace ze_cuda
