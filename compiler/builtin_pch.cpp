#include "builtin_pch.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Serialization/ASTWriter.h>
#include <llvm/Support/VirtualFileSystem.h>

#include "compiler.hpp"
#include "invocation.hpp"
#include "restricted_fs.hpp"

namespace imex_l0::compiler {
namespace {

// Distinct argument sets (language standard, -cl-* and -W flags) a process
// keeps PCHs for; beyond it the oldest is dropped (compiles holding it keep
// it alive). opencl-c.h's PCH is 2.7 MB, opencl-c-base.h's 0.14 MB.
constexpr size_t kMaxEntries = 8;

bool isDefineOrUndef(llvm::StringRef arg) {
    return arg.startswith("-D") || arg.startswith("-U");
}

// The empty file a PCH is built from; a compile loading the PCH finds it
// where the PCH says it was.
void addSource(llvm::vfs::InMemoryFileSystem &files) {
    files.addFile(BuiltinPch::kSourcePath, 0, llvm::MemoryBuffer::getMemBuffer(""));
}

// The macro name of a "-DNAME", "-DNAME=value", "-DNAME(a)=..." or "-UNAME".
std::string macroName(const std::string &arg) {
    std::string name = arg.substr(2);
    return name.substr(0, name.find_first_of("=("));
}

// A compile's arguments without what the PCH does not depend on: its -D/-U
// (checked against the header's identifiers instead), -I directories (the
// header is clang's own) and the -include of the implementation header (read
// after the PCH, by each compile).
std::vector<std::string> headerArguments(const std::vector<std::string> &cc1Args) {
    std::vector<std::string> kept;
    for (size_t i = 0; i < cc1Args.size(); ++i) {
        const std::string &arg = cc1Args[i];
        if (arg == "-I" || arg == "-include") {
            ++i;
            continue;
        }
        if (isDefineOrUndef(arg))
            continue;
        kept.push_back(arg);
    }
    return kept;
}

void addIdentifiers(llvm::StringRef text, std::unordered_set<std::string> &out) {
    auto isStart = [](char c) { return c == '_' || std::isalpha(static_cast<unsigned char>(c)); };
    auto isBody = [](char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)); };
    for (size_t i = 0; i < text.size();) {
        if (!isStart(text[i])) {
            // Skip whole numbers too, so that "1e10f" yields no "e10f".
            size_t j = i + 1;
            if (std::isdigit(static_cast<unsigned char>(text[i])))
                while (j < text.size() && isBody(text[j]))
                    ++j;
            i = j;
            continue;
        }
        size_t j = i + 1;
        while (j < text.size() && isBody(text[j]))
            ++j;
        out.emplace(text.substr(i, j - i).str());
        i = j;
    }
}

// Writes the precompiled prefix into `buffer` (what GeneratePCHAction writes
// to a file), then records every identifier of the files it read.
class Generator : public clang::PCHGenerator {
public:
    Generator(clang::CompilerInstance &ci, std::shared_ptr<clang::PCHBuffer> buffer,
              std::unordered_set<std::string> &identifiers)
        : clang::PCHGenerator(ci.getPreprocessor(), ci.getModuleCache(), BuiltinPch::kPchPath,
                              /*isysroot=*/"", std::move(buffer),
                              ci.getFrontendOpts().ModuleFileExtensions),
          sourceManager_(ci.getSourceManager()), identifiers_(identifiers) {}

    void HandleTranslationUnit(clang::ASTContext &context) override {
        clang::PCHGenerator::HandleTranslationUnit(context);
        for (auto it = sourceManager_.fileinfo_begin(); it != sourceManager_.fileinfo_end(); ++it)
            if (llvm::Optional<llvm::StringRef> text = it->second->getBufferDataIfLoaded())
                addIdentifiers(*text, identifiers_);
    }

private:
    clang::SourceManager &sourceManager_;
    std::unordered_set<std::string> &identifiers_;
};

// The PCH's bytes as a file, holding the PCH while the file system does.
class PchBuffer : public llvm::MemoryBuffer {
public:
    PchBuffer(std::shared_ptr<const BuiltinPch> owner, const std::vector<char> &bytes)
        : owner_(std::move(owner)) {
        init(bytes.data(), bytes.data() + bytes.size(), /*RequiresNullTerminator=*/false);
    }
    BufferKind getBufferKind() const override { return MemoryBuffer_Malloc; }
    llvm::StringRef getBufferIdentifier() const override { return BuiltinPch::kPchPath; }

private:
    std::shared_ptr<const BuiltinPch> owner_;
};

class PrecompileAction : public clang::ASTFrontendAction {
public:
    PrecompileAction(std::shared_ptr<clang::PCHBuffer> buffer,
                     std::unordered_set<std::string> &identifiers)
        : buffer_(std::move(buffer)), identifiers_(identifiers) {}

protected:
    std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci,
                                                          llvm::StringRef) override {
        return std::make_unique<Generator>(ci, buffer_, identifiers_);
    }
    bool BeginSourceFileAction(clang::CompilerInstance &ci) override {
        ci.getLangOpts().CompilingPCH = true;
        return true;
    }
    clang::TranslationUnitKind getTranslationUnitKind() override { return clang::TU_Prefix; }
    bool hasASTFileSupport() const override { return false; }

private:
    std::shared_ptr<clang::PCHBuffer> buffer_;
    std::unordered_set<std::string> &identifiers_;
};

} // namespace

std::shared_ptr<const BuiltinPch> BuiltinPch::build(const std::vector<std::string> &args) {
    // Diagnostics are dropped: a header that does not precompile cleanly
    // under these options is simply parsed by each compile, which reports.
    clang::IgnoringDiagConsumer ignore;
    std::shared_ptr<clang::CompilerInvocation> invocation =
        makeInvocation(args, ignore, new clang::DiagnosticOptions);
    if (!invocation)
        return nullptr;

    llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(
        new llvm::vfs::InMemoryFileSystem);
    addSource(*memory);

    clang::CompilerInstance ci;
    ci.setInvocation(invocation);
    ci.createDiagnostics(&ignore, /*ShouldOwnClient=*/false);
    ci.createFileManager(compilerFileSystem(memory, {}, kVirtualDir));
    auto pchBuffer = std::make_shared<clang::PCHBuffer>();
    auto pch = std::make_shared<BuiltinPch>();
    PrecompileAction action(pchBuffer, pch->identifiers_);
    if (!ci.ExecuteAction(action) || ci.getDiagnostics().hasErrorOccurred() ||
        !pchBuffer->IsComplete)
        return nullptr;
    pch->bytes_.assign(pchBuffer->Data.begin(), pchBuffer->Data.end());
    return pch;
}

std::shared_ptr<const BuiltinPch> BuiltinPch::forCompile(const std::vector<std::string> &cc1Args) {
    struct Entry {
        unsigned uses = 0;
        bool building = false;
        bool built = false;
        std::shared_ptr<const BuiltinPch> pch; // null once built: cannot be built
    };
    static std::mutex mutex;
    static std::map<std::vector<std::string>, std::shared_ptr<Entry>> entries;
    static std::vector<std::vector<std::string>> order; // oldest first

    std::vector<std::string> key = headerArguments(cc1Args);
    std::shared_ptr<Entry> entry;
    {
        std::lock_guard<std::mutex> lock(mutex);
        std::shared_ptr<Entry> &slot = entries[key];
        if (!slot) {
            slot = std::make_shared<Entry>();
            order.push_back(key);
            if (order.size() > kMaxEntries) {
                entries.erase(order.front());
                order.erase(order.begin());
            }
        }
        entry = slot;
        // While another compile builds it, this one parses the header: no
        // lock is held across the build, which may crash (the caller's crash
        // recovery does not unwind; an entry whose build crashed stays
        // unbuilt, and in-process compiles end with the crash anyway).
        if (entry->built)
            return entry->pch && !entry->pch->collidesWith(cc1Args) ? entry->pch : nullptr;
        // Building opencl-c-base.h's PCH costs about as much as 15 compiles
        // save by loading it (4.3 ms against 0.3 ms), so a process that
        // compiles once with these options never builds it. opencl-c.h's
        // (110 ms) is built at once: parsing that header costs 75 ms a time.
        const bool fastPath =
            std::find(cc1Args.begin(), cc1Args.end(), "-fdeclare-opencl-builtins") != cc1Args.end();
        if (entry->building || ++entry->uses < (fastPath ? 2u : 1u))
            return nullptr;
        entry->building = true;
    }
    key.insert(key.end(), {"-x", "cl-header", kSourcePath});
    std::shared_ptr<const BuiltinPch> pch = build(key);
    {
        std::lock_guard<std::mutex> lock(mutex);
        entry->pch = pch;
        entry->built = true;
    }
    return pch && !pch->collidesWith(cc1Args) ? pch : nullptr;
}

bool BuiltinPch::collidesWith(const std::vector<std::string> &cc1Args) const {
    return std::any_of(cc1Args.begin(), cc1Args.end(), [this](const std::string &arg) {
        return isDefineOrUndef(arg) && identifiers_.count(macroName(arg)) != 0;
    });
}

void BuiltinPch::addFiles(llvm::vfs::InMemoryFileSystem &files) const {
    addSource(files);
    files.addFile(kPchPath, 0, std::make_unique<PchBuffer>(shared_from_this(), bytes_));
}

} // namespace imex_l0::compiler
