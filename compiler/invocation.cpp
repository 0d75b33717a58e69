#include "invocation.hpp"

namespace imex_l0::compiler {

std::shared_ptr<clang::CompilerInvocation>
makeInvocation(const std::vector<std::string> &args, clang::DiagnosticConsumer &diagnostics,
               llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options) {
    std::vector<const char *> argv;
    for (const std::string &arg : args)
        argv.push_back(arg.c_str());
    auto invocation = std::make_shared<clang::CompilerInvocation>();
    llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs);
    clang::DiagnosticsEngine argDiags(ids, options, &diagnostics, /*ShouldOwnClient=*/false);
    if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, argDiags) ||
        argDiags.hasErrorOccurred())
        return nullptr;
    invocation->getFrontendOpts().DisableFree = false;
    return invocation;
}

} // namespace imex_l0::compiler
