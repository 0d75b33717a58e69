// Runs a compile on a thread of its own with a large stack. clang's parser,
// Sema and code generation recurse once per level of an expression tree: a
// chain of 40,000 terms (or a short macro that expands to one) needs about
// 10 MB, more than many callers' threads have (4,096 terms overflow a 1 MB
// stack). Whatever thread calls the library, compiles get a stack of
// IMEX_L0_COMPILER_STACK_BYTES (512 MiB of address space by default; pages
// are only used as deep as a compile goes), as clang's own driver runs its
// compiles on a large stack of its own.
//
// Deeper still, the overflow is a signal like any other crash: the thread
// has an alternate signal stack and LLVM's crash-recovery handler runs on it
// (SA_ONSTACK), so CrashRecoveryContext contains it (compiler.cpp) instead
// of the process dying on a handler that has no stack left to run on.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>


namespace imex_l0::compiler {

// Runs `body` to completion on a thread with the configured stack and an
// alternate signal stack (one kept from an earlier compile, or a new one);
// rethrows what it throws. If no such thread can be made, runs it on the
// caller's thread.
void runOnLargeStack(llvm::function_ref<void()> body);

// Makes the process's crash-recovery signal handlers run on the alternate
// signal stack of threads that have one (after CrashRecoveryContext::Enable).
void crashHandlersOnAlternateStack();

} // namespace imex_l0::compiler
