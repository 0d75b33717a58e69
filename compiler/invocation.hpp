// cc1 arguments -> clang::CompilerInvocation, shared by the compiles and the
// builtin header's precompilation.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInvocation.h>

namespace imex_l0::compiler {

// The invocation clang makes of args, with DisableFree off (the compiler
// lives in a long-running process); null, with the reason sent to
// diagnostics, if clang rejects them.
std::shared_ptr<clang::CompilerInvocation>
makeInvocation(const std::vector<std::string> &args, clang::DiagnosticConsumer &diagnostics,
               llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> options);

} // namespace imex_l0::compiler
