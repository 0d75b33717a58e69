#include "spirv_translator.hpp"

#include "contained.hpp"
#include "division_guard.hpp"
#include "generic_builtins.hpp"
#include "image_builtins.hpp"
#include "kernel_metadata.hpp"
#include "missing_builtins.hpp"
#include "recursion_check.hpp"
#include "spirv_linker.hpp"
#include "spirv_relaxations.hpp"
#include "spirv_words.hpp"
#include "sub_groups.hpp"
#include "translator_limits.hpp"
#include "work_group_collectives.hpp"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <spirv-tools/libspirv.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>

namespace ze_driver {
namespace detail {

namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kSpirvHeaderBytes = 5 * sizeof(uint32_t);

// The translator keeps process-wide state — command-line option globals it
// reads during translation and lazily built name tables — and its own header
// calls parts of it not thread-safe. Translations are rare and short next to
// the PoCL build that follows, so one lock around every call into the
// translator costs little. Guards: every call into LLVMSPIRVLib.
std::mutex translatorMutex;

std::atomic<bool> crashNext{false};
std::atomic<bool> crashedBefore{false};

// Runs `stage` so that a crash inside it (a signal on this thread) returns
// false instead of ending the host process (contained.hpp).
bool contained(llvm::function_ref<void()> stage) {
    std::string fatal;
    if (runContained(stage, &fatal))
        return true;
    crashedBefore.store(true);
    return false;
}

// After a crash the context and what the translator built in it are not
// trusted to destroy cleanly: they stay reachable, unreleased, for the
// process's life.
void abandon(std::unique_ptr<llvm::LLVMContext> context) {
    static auto *abandoned = new std::vector<std::unique_ptr<llvm::LLVMContext>>;
    static std::mutex abandonedMutex;
    std::lock_guard<std::mutex> lock(abandonedMutex);
    abandoned->push_back(std::move(context));
}

std::string hex32(uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof(text), "0x%08x", value);
    return text;
}

// The translator is not hardened against malformed input: on broken SPIR-V
// it can read out of bounds or abort the process. SPIRV-Tools' validator is,
// so nothing reaches the translator that the validator rejects, except for
// the relaxations of spirv_relaxations.hpp (which may add to `words`).
// SPIR-V 1.4 is the newest version translator 15 reads.
ze_result_t validateSpirv(std::vector<uint32_t> &words, std::string *log) {
    spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_4);
    if (!context) {
        *log += "SPIR-V validation: cannot create a SPIRV-Tools context\n";
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    // Naming every id after its OpName for the messages is most of the
    // validator's time, and a valid module has no message: each round
    // validates without names first, and again with them only to word a
    // failure.
    spv_validator_options quiet = spvValidatorOptionsCreate();
    if (!quiet) {
        spvContextDestroy(context);
        *log += "SPIR-V validation: cannot create validator options\n";
        return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    }
    spvValidatorOptionsSetFriendlyNames(quiet, false);
    ze_result_t result = ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    // Each round either passes, fails for good, or declares one more
    // extension; a module declares few.
    for (int round = 0; round < 64; ++round) {
        std::vector<uint32_t> view = validatorView(words);
        spv_const_binary_t binary = {view.data(), view.size()};
        if (spvValidateWithOptions(context, quiet, &binary, nullptr) == SPV_SUCCESS) {
            result = ZE_RESULT_SUCCESS;
            break;
        }
        spv_diagnostic diagnostic = nullptr;
        spv_result_t status = spvValidate(context, &binary, &diagnostic);
        std::string error = diagnostic && diagnostic->error ? diagnostic->error : "";
        size_t position = diagnostic ? diagnostic->position.index : 0;
        spvDiagnosticDestroy(diagnostic);
        if (status == SPV_SUCCESS) {
            result = ZE_RESULT_SUCCESS;
            break;
        }
        if (addExtensionTheValidatorAsksFor(words, error, log) && round + 1 < 64)
            continue;
        *log += "SPIR-V validation failed";
        if (!error.empty())
            *log += " at word " + std::to_string(position) + ": " + error;
        *log += "\n";
        break;
    }
    spvValidatorOptionsDestroy(quiet);
    spvContextDestroy(context);
    return result;
}

// What module `index` of `program` says in the log: in a program of several
// modules, each line behind the module's number.
std::string ofModule(const SpirvProgram &program, size_t index, const std::string &text) {
    if (program.size() == 1)
        return text;
    const std::string prefix = "SPIR-V module " + std::to_string(index + 1) + " of " +
                               std::to_string(program.size()) + ": ";
    std::string out;
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        end = end == std::string::npos ? text.size() : end + 1;
        out += prefix + text.substr(at, end - at);
        at = end;
    }
    return out;
}

} // namespace

ze_result_t checkSpirvHeader(const uint8_t *spirv, size_t size, std::string *log) {
    if (!spirv) {
        *log += "SPIR-V input is null\n";
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (size < kSpirvHeaderBytes) {
        *log += "SPIR-V input of " + std::to_string(size) +
                " bytes is shorter than the 20-byte SPIR-V header\n";
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (size % sizeof(uint32_t) != 0) {
        *log += "SPIR-V input of " + std::to_string(size) +
                " bytes is not a whole number of 32-bit words\n";
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    uint32_t magic;
    std::memcpy(&magic, spirv, sizeof(magic));
    if (magic == __builtin_bswap32(kSpirvMagic)) {
        *log += "SPIR-V input is big-endian, which is not supported\n";
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    if (magic != kSpirvMagic) {
        *log += "input is not SPIR-V: magic number " + hex32(magic) + ", expected " +
                hex32(kSpirvMagic) + "\n";
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    // Word 4 is reserved for an instruction schema and must be 0. The
    // validator does not look at it; the translator calls exit() on any other
    // value, so it is checked here.
    uint32_t schema;
    std::memcpy(&schema, spirv + 4 * sizeof(uint32_t), sizeof(schema));
    if (schema != 0) {
        *log += "SPIR-V header word 4 (reserved for an instruction schema) is " + hex32(schema) +
                "; it must be 0\n";
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    return ZE_RESULT_SUCCESS;
}

ze_result_t checkSpirvHeaders(const SpirvProgram &program, std::string *log) {
    if (program.empty()) {
        *log += "the program has no SPIR-V module\n";
        return ZE_RESULT_ERROR_INVALID_ARGUMENT;
    }
    for (size_t i = 0; i < program.size(); ++i) {
        std::string own;
        ze_result_t result = checkSpirvHeader(program[i].spirv, program[i].size, &own);
        *log += ofModule(program, i, own);
        if (result != ZE_RESULT_SUCCESS)
            return result;
    }
    return ZE_RESULT_SUCCESS;
}

namespace {

// The devices of both drivers have 64-bit addresses. A Physical32 module
// would become 32-bit SPIR (or 32-bit NVPTX), whose pointers the device
// compiler takes at the wrong width (PoCL 3.1 crashes on such bitcode), so
// the addressing model is checked on the validated words before the
// translator sees them.
ze_result_t checkAddressingModel(const std::vector<uint32_t> &words, std::string *log) {
    constexpr uint16_t kOpMemoryModel = 14;
    constexpr uint32_t kPhysical64 = 2;
    for (const SpirvInstruction &inst : spirvInstructions(words)) {
        if (inst.opcode != kOpMemoryModel || inst.size < 2)
            continue;
        uint32_t model = words[inst.at + 1];
        if (model == kPhysical64)
            return ZE_RESULT_SUCCESS;
        const char *name = model == 0 ? "Logical" : model == 1 ? "Physical32" : nullptr;
        *log += std::string("the module's addressing model is ") +
                (name ? name : "number " + std::to_string(model)) +
                "; this device has 64-bit addresses and takes Physical64 modules only "
                "(compile for spir64, e.g. clang -target spir64)\n";
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    *log += "the module has no OpMemoryModel instruction\n";
    return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
}

// One module of a program (its header checked): validated, translated into
// `context` and verified. `*crashed` when the translator crashed on it (the
// context is then not to be trusted).
ze_result_t readOne(const SpirvInput &input, llvm::LLVMContext &context,
                    std::unique_ptr<llvm::Module> *out, std::string *log, bool *crashed) {
    // A copy: the caller's bytes need not be 4-byte aligned.
    std::vector<uint32_t> words(input.size / sizeof(uint32_t));
    std::memcpy(words.data(), input.spirv, input.size);
    repairBeforeValidation(words, log);
    ze_result_t result = validateSpirv(words, log);
    if (result != ZE_RESULT_SUCCESS)
        return result;
    result = checkAddressingModel(words, log);
    if (result != ZE_RESULT_SUCCESS)
        return result;
    result = checkTranslatorLimits(words, log);
    if (result != ZE_RESULT_SUCCESS)
        return result;

    SPIRV::TranslatorOpts options;
    // Whatever extension the producer used is accepted on input; if the
    // device compiler cannot handle the result, its build log says so.
    options.enableAllExtensions();
    // SPIR 1.2 consumers (and libclc) understand the OpenCL 1.2 mangled builtins.
    options.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::OpenCL12);
    // SPIR-V integers have no signedness, so kernel_arg_type rebuilt from the
    // types says "int" for a uint argument. A producer that kept the OpenCL
    // type names as OpStrings gets them back exactly; without them the
    // translator falls back to the names it derives from the types.
    options.setPreserveOCLKernelArgTypeMetadataThroughString(true);
    for (const SpecConstant &constant : input.specConstants)
        options.setSpecConst(constant.id, constant.value);

    // The words as repaired, not the caller's bytes.
    std::string bytes(reinterpret_cast<const char *>(words.data()),
                      words.size() * sizeof(uint32_t));
    std::istringstream stream(bytes);
    llvm::Module *rawModule = nullptr;
    std::string error;
    bool translated = false;
    if (crashedBefore.load())
        *log += "note: the SPIR-V translator crashed on an earlier module in this process; "
                "its results since then are not guaranteed\n";
    {
        std::lock_guard<std::mutex> lock(translatorMutex);
        if (!contained([&] {
                if (crashNext.exchange(false))
                    std::raise(SIGSEGV);
                translated = llvm::readSpirv(context, options, stream, rawModule, error);
            })) {
            *crashed = true;
            *log += "SPIR-V translation failed: internal error in the SPIR-V translator "
                    "(LLVMSPIRVLib): it crashed on this module; the process goes on\n";
            return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
        }
    }
    std::unique_ptr<llvm::Module> module(rawModule);
    if (!translated || !module) {
        *log += "SPIR-V translation failed: " + (error.empty() ? "unknown error" : error) + "\n";
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }

    // The device compilers are built with assertions too; IR the verifier
    // rejects must not reach them (nor the linker).
    std::string verifierMessage;
    llvm::raw_string_ostream verifierStream(verifierMessage);
    if (llvm::verifyModule(*module, &verifierStream)) {
        *log += "SPIR-V translation produced invalid LLVM IR: " + verifierStream.str() + "\n";
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    *out = std::move(module);
    return ZE_RESULT_SUCCESS;
}

} // namespace

ze_result_t readSpirvModule(const SpirvProgram &program, bool opaquePointers, SpirvModule *out,
                            std::string *log) {
    ze_result_t result = checkSpirvHeaders(program, log);
    if (result != ZE_RESULT_SUCCESS)
        return result;
    // One context per translation: LLVMContexts are independent, so only the
    // translator call itself needs the lock. On the heap, so that a crash can
    // leave it, and what the translator had built in it, unreleased.
    auto context = std::make_unique<llvm::LLVMContext>();
    // LLVM 15 defaults to opaque pointers unless told otherwise before the
    // first pointer type is created.
    context->setOpaquePointers(opaquePointers);

    std::vector<std::unique_ptr<llvm::Module>> modules;
    for (size_t i = 0; i < program.size(); ++i) {
        std::string own;
        std::unique_ptr<llvm::Module> module;
        bool crashed = false;
        result = readOne(program[i], *context, &module, &own, &crashed);
        *log += ofModule(program, i, own);
        if (crashed) {
            for (auto &read : modules)
                (void)read.release();
            abandon(std::move(context));
            return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
        }
        if (result != ZE_RESULT_SUCCESS)
            return result;
        modules.push_back(std::move(module));
    }
    std::unique_ptr<llvm::Module> module = std::move(modules.front());
    modules.erase(modules.begin());
    result = linkSpirvModules(*module, std::move(modules), log);
    if (result != ZE_RESULT_SUCCESS)
        return result;

    std::string recursion = findRecursion(*module);
    if (!recursion.empty()) {
        *log += recursion;
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    out->kernels = kernelInfoFromModule(*module);
    out->module = std::move(module);
    out->context = std::move(context);
    return ZE_RESULT_SUCCESS;
}

ze_result_t translateSpirv(const SpirvProgram &program, TranslatedModule *out, std::string *log) {
    // SPIR 1.2 is defined on typed pointers, so that is what the bitcode
    // handed over as SPIR carries. (PoCL 3.1 on LLVM 15 was measured to build
    // and run these kernels from opaque-pointer bitcode too, but other SPIR
    // consumers need not.)
    SpirvModule read;
    ze_result_t result = readSpirvModule(program, /*opaquePointers=*/false, &read, log);
    if (result != ZE_RESULT_SUCCESS)
        return result;
    // PoCL links each kernel into a shared object under a symbol made of its
    // name, where the linker takes '@' for a symbol version, and ends the
    // process when the link fails (found by tests/fuzz/module_create).
    for (const KernelInfo &kernel : read.kernels) {
        const bool identifier =
            !kernel.name.empty() && std::all_of(kernel.name.begin(), kernel.name.end(), [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
            });
        if (!identifier) {
            *log += "kernel name \"" + kernel.name +
                    "\" is not made of letters, digits and '_' only; this device links kernels "
                    "by name and cannot take it: rename the kernel\n";
            return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
        }
    }
    llvm::Module &module = *read.module;
    guardIntegerDivision(module);
    resolveMissingBuiltins(module);
    resolveGenericBuiltins(module);
    resolveSubGroupBuiltins(module);
    defineWorkGroupCollectives(module);
    resolveImageBuiltins(module);
    out->kernels = std::move(read.kernels);
    llvm::SmallVector<char, 0> bitcode;
    llvm::raw_svector_ostream bitcodeStream(bitcode);
    llvm::WriteBitcodeToFile(module, bitcodeStream);
    out->bitcode.assign(bitcode.begin(), bitcode.end());
    return ZE_RESULT_SUCCESS;
}

} // namespace detail

void crashNextTranslation() {
    detail::crashNext.store(true);
}

} // namespace ze_driver
