// The in-process back end: clang::CompilerInstance -> llvm::Module ->
// optimizeAndLegalize -> llvm::writeSpirv -> validateSpirv.
#include "compiler.hpp"

#include <atomic>
#include <csignal>
#include <mutex>
#include <sstream>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>

#include "builtin_pch.hpp"
#include "config.hpp"
#include "invocation.hpp"
#include "large_stack.hpp"
#include "legalize.hpp"
#include "memory_ordering.hpp"
#include "restricted_fs.hpp"
#include "screen.hpp"
#include "whole_program.hpp"

namespace imex_l0::compiler {
namespace {

// LLVMSPIRVLib 15 keeps process-global state that was never made safe for
// concurrent use (cl::opt-backed settings read during translation, lazily
// built static tables), so translations run one at a time. clang's frontend
// and the LLVM pass pipeline work on per-compile CompilerInstance/LLVMContext
// objects, which LLVM supports from several threads, and run concurrently.
std::mutex translatorMutex;

std::atomic<bool> crashedBefore{false};

// Runs one stage of a compile; false if it crashed, which is written to the
// log and makes the in-process compiler untrusted for the rest of the process.
// No lock of ours may be taken inside `stage`: a crash skips its unwinding.
bool contained(const char *name, llvm::raw_ostream &log, llvm::function_ref<void()> stage) {
    static std::once_flag enabled;
    std::call_once(enabled, [] {
        llvm::CrashRecoveryContext::Enable();
        crashHandlersOnAlternateStack(); // a stack overflow is contained too
    });
    llvm::CrashRecoveryContext context;
    if (context.RunSafely(stage))
        return true;
    crashedBefore.store(true);
    log << "error: internal compiler error in " << name
        << ": it crashed on this input; the process goes on, and later compiles in this "
           "process use the subprocess compiler (clang-15 | llvm-spirv-15)\n";
    return false;
}

// Translator 15, as Debian builds it (with its debug support), verifies the
// whole module after each of its seven lowering passes and discards the
// result: a failure is only printed under LLVM_DEBUG. That is 10% of a
// compile and changes nothing, so it is switched off once, as
// `llvm-spirv-15 --spirv-verify-regularize-passes=false` would.
// optimizeAndLegalize verifies the module itself before the translator sees
// it. The option is LLVMSPIRVLib's own, read only by those passes.
void skipDiscardedVerification() {
    static std::once_flag once;
    std::call_once(once, [] {
        llvm::StringMap<llvm::cl::Option *> &options = llvm::cl::getRegisteredOptions();
        auto found = options.find("spirv-verify-regularize-passes");
        if (found != options.end())
            found->second->addOccurrence(0, found->first(), "false");
    });
}

// IMEX_L0_COMPILER_FAULT=crash-translator: the next translation crashes;
// abort-translator: it fails an assertion (abort(), as LLVMSPIRVLib's do).
void injectedCrash() {
    static std::atomic<bool> fired{false};
    if (config().fault == "crash-translator" && !fired.exchange(true))
        std::raise(SIGSEGV);
    if (config().fault == "abort-translator" && !fired.exchange(true))
        std::abort();
}

// Where the builtins' declarations come from. clang's table-generated ones
// (-fdeclare-opencl-builtins) cost almost nothing but cover only the
// standard builtins; opencl-c.h also declares the vendor extensions' (Intel
// sub-groups, AMD media ops, ...) whose macros the spir target defines, and
// takes about 0.1 s to parse (once per process: builtin_pch.hpp).
enum class Builtins { declared, fullHeader };

std::vector<std::string> cc1Arguments(const BuildOptions &options, Builtins builtins) {
    std::vector<std::string> args = {
        "-triple", "spir64-unknown-unknown",
        "-cl-std=" + options.clStd,
        // Translator 15 cannot translate clang 15's opaque pointers (local
        // memory, atomics and struct arguments assert).
        "-no-opaque-pointers",
        "-finclude-default-header",
        // optimizeAndLegalize runs the optimisation pipeline itself, so that
        // its legalisation sees the optimised IR before the translator does.
        "-disable-llvm-passes",
        // As the clang driver of a release build: the front end's IR is not
        // verified again (optimizeAndLegalize verifies what it hands on).
        "-disable-llvm-verifier",
        // Also as a release clang driver: local values and blocks get no
        // names (no consumer reads them; naming costs time, and the
        // translator writes an OpName for each).
        "-discard-value-names",
        // No type-based alias metadata: SPIR-V cannot carry it, and the
        // pipeline's passes do not need it, but emitting it, carrying it
        // through every pass and verifying it cost 10% of a compile.
        "-relaxed-aliasing",
        // The front end's level only shapes the IR it emits (the pipeline
        // runs at options.optLevel). At 0 clang emits no body for a C99
        // inline function (internalizeHelpers needs one) and marks every
        // function optnone; from 1 up it does neither.
        "-O" + std::to_string(std::max(1u, options.optLevel)),
        "-resource-dir", IMEX_L0_CLANG_RESOURCE_DIR,
        "-I", kVirtualDir,
    };
    for (std::string &arg : implementationArguments(options))
        args.push_back(std::move(arg));
    if (builtins == Builtins::declared)
        args.push_back("-fdeclare-opencl-builtins");
    for (const std::string &dir : options.includeDirs) {
        args.push_back("-I");
        args.push_back(dir);
    }
    for (const std::string &arg : options.ccArgs)
        args.push_back(arg);
    return args; // the input, "-x cl kernel.cl", is setUp's
}

// The headers, the main file and the builtin header's PCH (if any) in
// memory; the real file system only under clang's resource directory and the
// user's -I directories.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> makeFileSystem(const CompileRequest &request,
                                                              const BuiltinPch *pch) {
    llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(
        new llvm::vfs::InMemoryFileSystem);
    memory->setCurrentWorkingDirectory(kVirtualDir);
    if (pch)
        pch->addFiles(*memory);
    memory->addFile(std::string(kVirtualDir) + "/" + kImplementationHeader, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(implementationHeader(request.spirvVersion),
                                                         kImplementationHeader));
    for (const auto &[name, contents] : request.headers->headers) {
        if (name == kMainFileName)
            continue;
        // The snapshot outlives the compile, so the buffers need not copy.
        memory->addFile(std::string(kVirtualDir) + "/" + name, 0,
                        llvm::MemoryBuffer::getMemBuffer(contents, name, false));
    }
    // A copy: clang's lexer needs a NUL after the last byte, and the
    // caller's source_size bytes need not be followed by one.
    memory->addFile(std::string(kVirtualDir) + "/" + kMainFileName, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(
                        llvm::StringRef(request.source.data(), request.source.size()),
                        kMainFileName));

    return compilerFileSystem(memory, request.options->includeDirs, kVirtualDir);
}

} // namespace

const char *identity() {
    static const std::string id = std::string("clang ") + CLANG_VERSION_STRING +
                                  "; LLVMSPIRVLib " IMEX_L0_LLVMSPIRV_VERSION
                                  "; imex_l0 " IMEX_L0_VERSION;
    return id.c_str();
}

namespace {

// Sets up ci for request: arguments, diagnostics into log, the file system;
// with precompiled, the builtin header comes from its PCH where that cannot
// change the result (builtin_pch.hpp), which may build the PCH first.
// Returns false (the reason in log) if clang rejects the arguments.
bool setUp(clang::CompilerInstance &ci, const CompileRequest &request,
           clang::DiagnosticConsumer &printer,
           llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOptions,
           Builtins builtins = Builtins::declared, bool precompiled = false) {
    std::vector<std::string> args = cc1Arguments(*request.options, builtins);
    std::shared_ptr<const BuiltinPch> pch = precompiled ? BuiltinPch::forCompile(args) : nullptr;
    if (pch)
        args.insert(args.end(), {"-include-pch", BuiltinPch::kPchPath});
    args.insert(args.end(), {"-x", "cl", kMainFileName});
    std::shared_ptr<clang::CompilerInvocation> invocation =
        makeInvocation(args, printer, diagOptions);
    if (!invocation)
        return false;
    invocation->getDiagnosticOpts().ShowColors = false;
    invocation->getDiagnosticOpts().ShowOptionNames = true;
    // The printer keeps its own options (carets on); with carets off in the
    // invocation, ExecuteAction does not print "N errors generated." to the
    // process's stderr.
    invocation->getDiagnosticOpts().ShowCarets = false;

    ci.setInvocation(invocation);
    ci.createDiagnostics(&printer, /*ShouldOwnClient=*/false);
    ci.createFileManager(makeFileSystem(request, pch.get()));
    return true;
}

// clang -E into a string.
class PreprocessToString : public clang::PreprocessorFrontendAction {
public:
    explicit PreprocessToString(std::string &out) : out_(out) {}

protected:
    void ExecuteAction() override {
        clang::CompilerInstance &ci = getCompilerInstance();
        // What -E sets: the token stream with line markers, not the macros.
        clang::PreprocessorOutputOptions &opts = ci.getPreprocessorOutputOpts();
        opts.ShowCPP = 1;
        opts.ShowMacros = 0;
        opts.ShowLineMarkers = 1;
        llvm::raw_string_ostream os(out_);
        clang::DoPrintPreprocessedInput(ci.getPreprocessor(), &os, opts);
    }

private:
    std::string &out_;
};

} // namespace

std::optional<std::string> preprocessInProcess(const CompileRequest &request) {
    std::string ignored;
    llvm::raw_string_ostream log(ignored);
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOptions(new clang::DiagnosticOptions);
    clang::TextDiagnosticPrinter printer(log, diagOptions.get());
    clang::CompilerInstance ci;
    if (!setUp(ci, request, printer, diagOptions))
        return std::nullopt;
    std::string text;
    PreprocessToString action(text);
    if (!ci.ExecuteAction(action) || ci.getDiagnostics().hasErrorOccurred())
        return std::nullopt;
    return text;
}

bool inProcessTrusted() { return !crashedBefore.load(); }

namespace {

CompileResult compileWith(const CompileRequest &request, Builtins builtins) {
    CompileResult result;
    llvm::raw_string_ostream log(result.log);

    // Diagnostics: clang's own text format, without colours, into the log.
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOptions(new clang::DiagnosticOptions);
    diagOptions->ShowColors = false;
    diagOptions->ShowOptionNames = true;
    clang::TextDiagnosticPrinter printer(log, diagOptions.get());

    // On the heap, so that a crash can leave them unreleased: after one, their
    // state cannot be trusted to destroy cleanly.
    auto ci = std::make_unique<clang::CompilerInstance>();
    auto context = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> module;
    auto crashed = [&] {
        // Kept, not destroyed: reachable from here for the process's life.
        static auto *untrusted = new std::vector<std::shared_ptr<void>>;
        static std::mutex untrustedMutex;
        std::lock_guard<std::mutex> lock(untrustedMutex);
        auto keep = [](auto *object) {
            untrusted->push_back(std::shared_ptr<void>(object, [](void *) {}));
        };
        keep(ci.release());
        keep(context.release());
        keep(module.release());
        log.flush();
        result.spirv.clear();
        result.reproducible = false;
        return result;
    };

    bool setUpOk = false;
    if (!contained("the OpenCL C front end (clang)", log, [&] {
            setUpOk = setUp(*ci, request, printer, diagOptions, builtins, /*precompiled=*/true);
        }))
        return crashed();
    if (!setUpOk) {
        log.flush();
        return result;
    }

    clang::EmitLLVMOnlyAction action(context.get());
    bool frontendOk = false;
    if (!contained("the OpenCL C front end (clang)", log,
                   [&] { frontendOk = ci->ExecuteAction(action); }))
        return crashed();
    module = frontendOk ? action.takeModule() : nullptr;
    if (!module) {
        log.flush();
        return result;
    }
    std::string error = screenForTranslator(*module, ci->getSourceManager(), request.spirvVersion);
    if (!error.empty()) {
        log << error;
        log.flush();
        return result;
    }
    internalizeHelpers(*module);
    inlineMemoryOrderingHelpers(*module);

    bool retryUnoptimized = false;
    if (!contained("the LLVM optimisation and legalisation passes", log, [&] {
            error = optimizeAndLegalize(*module, request.options->optLevel, &retryUnoptimized);
        }))
        return crashed();
    if (config().fault == "optimizer-width" && request.options->optLevel > 0)
        retryUnoptimized = true;
    if (retryUnoptimized) {
        // Unoptimised SPIR-V is still correct SPIR-V, and the device compiler
        // optimises it: better than refusing a kernel that clang accepted.
        BuildOptions unoptimized = *request.options;
        unoptimized.optLevel = 0;
        CompileRequest again = request;
        again.options = &unoptimized;
        return compileWith(again, builtins);
    }
    if (!error.empty()) {
        log << "error: " << error << "\n";
        log.flush();
        return result;
    }
    // After optimisation: a call the optimiser removed is no error.
    error = undefinedFunctions(*module) + zeroLengthArrays(*module) + settleMemoryOrdering(*module);
    if (!error.empty()) {
        log << error;
        log.flush();
        return result;
    }

    std::ostringstream spirv;
    {
        std::lock_guard<std::mutex> lock(translatorMutex);
        skipDiscardedVerification();
        // The extensions of the vendor builtins opencl-c.h declares (Intel
        // sub-groups, media block I/O, AVC motion estimation): each changes
        // the translation of its own builtins only. Without them the
        // translator exit()s on such a call instead of reporting it.
        // SPV_KHR_no_integer_wrap_decoration keeps C's rule that signed
        // arithmetic does not overflow (LLVM's nsw/nuw) in the SPIR-V: a
        // device compiler needs it to widen 32-bit indices into 64-bit
        // pointer steps (measured on the CUDA driver: a 3D stencil's loop
        // 1.16x NVIDIA's OpenCL without it).
        SPIRV::TranslatorOpts opts(
            static_cast<SPIRV::VersionNumber>(request.spirvVersion),
            {{SPIRV::ExtensionID::SPV_INTEL_subgroups, true},
             {SPIRV::ExtensionID::SPV_INTEL_media_block_io, true},
             {SPIRV::ExtensionID::SPV_INTEL_device_side_avc_motion_estimation, true},
             {SPIRV::ExtensionID::SPV_KHR_no_integer_wrap_decoration, true}});
        std::string translatorError;
        bool translated = false;
        if (!contained("the SPIR-V translator (LLVMSPIRVLib)", log, [&] {
                injectedCrash();
                translated = llvm::writeSpirv(module.get(), opts, spirv, translatorError);
            }))
            return crashed();
        if (!translated) {
            log << "error: SPIR-V translation failed: " << translatorError << "\n";
            log.flush();
            return result;
        }
    }
    result.spirv = spirv.str();

    if (!contained("the SPIR-V validator", log, [&] {
            error = validateSpirv(result.spirv.data(), result.spirv.size(), request.spirvVersion);
        }))
        return crashed();
    if (!error.empty()) {
        log << "error: SPIR-V validation failed: " << error << "\n";
        log.flush();
        result.spirv.clear();
        return result;
    }
    log.flush();
    result.ok = true;
    return result;
}

// The diagnostics a name that only opencl-c.h declares produces.
bool mentionsUndeclaredName(const std::string &log) {
    return log.find("use of undeclared identifier") != std::string::npos ||
           log.find("implicit declaration of function") != std::string::npos ||
           log.find("unknown type name") != std::string::npos;
}

} // namespace

CompileResult compileInProcess(const CompileRequest &request) {
    CompileResult fast = compileWith(request, Builtins::declared);
    if (fast.ok || !inProcessTrusted() || !mentionsUndeclaredName(fast.log))
        return fast;
    // Accept what clang with its full header accepts; when that fails too,
    // its diagnostics are the ones that hold.
    return compileWith(request, Builtins::fullHeader);
}

} // namespace imex_l0::compiler
