#include "spirv_linker.hpp"

#include <llvm/ADT/SetVector.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/raw_ostream.h>

namespace ze_driver {
namespace detail {

namespace {

// The linker appends every module's named metadata: the translator's
// module-level records (OpenCL and SPIR versions, extensions used) would
// appear once per module. Each keeps one copy of each record (metadata of
// one context is uniqued, so equal records are the same node).
void dropRepeatedRecords(llvm::Module &module) {
    for (llvm::NamedMDNode &named : module.named_metadata()) {
        llvm::SetVector<llvm::MDNode *> records;
        for (llvm::MDNode *record : named.operands())
            records.insert(record);
        if (records.size() == named.getNumOperands())
            continue;
        named.clearOperands();
        for (llvm::MDNode *record : records)
            named.addOperand(record);
    }
}

} // namespace

ze_result_t linkSpirvModules(llvm::Module &into, std::vector<std::unique_ptr<llvm::Module>> others,
                             std::string *log) {
    if (others.empty())
        return ZE_RESULT_SUCCESS;
    // The linker words its errors as diagnostics of the context: they go to
    // the build log, never to the application's standard error.
    llvm::LLVMContext &context = into.getContext();
    std::string messages;
    auto handler = [](const llvm::DiagnosticInfo &info, void *text) {
        llvm::raw_string_ostream stream(*static_cast<std::string *>(text));
        llvm::DiagnosticPrinterRawOStream printer(stream);
        stream << llvm::LLVMContext::getDiagnosticMessagePrefix(info.getSeverity()) << ": ";
        info.print(printer);
        stream << "\n";
    };
    // The context outlives `messages`: its handler is put back afterwards.
    auto previous = context.getDiagnosticHandlerCallBack();
    void *previousContext = context.getDiagnosticContext();
    context.setDiagnosticHandlerCallBack(handler, &messages);
    size_t failed = 0; // the 1-based position in `others` of a module that did not link
    for (size_t i = 0; i < others.size() && failed == 0; ++i)
        if (llvm::Linker::linkModules(into, std::move(others[i])))
            failed = i + 1;
    context.setDiagnosticHandlerCallBack(previous, previousContext);
    if (failed != 0) {
        *log += "linking SPIR-V module " + std::to_string(failed + 1) +
                " into the program failed: " + messages;
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    *log += messages; // warnings
    dropRepeatedRecords(into);
    return ZE_RESULT_SUCCESS;
}

} // namespace detail
} // namespace ze_driver
