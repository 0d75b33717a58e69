// Running a stage of LLVM inside zeModuleCreate (the SPIR-V reader, the
// PTX code generation) so that a crash or an LLVM fatal error in it fails
// that build instead of ending the application's process. LLVM reports what
// it cannot do ("Cannot select", "Undefined external symbol") by
// report_fatal_error, which ends the process; inside a contained stage the
// driver's fatal-error handler keeps the message and turns the error into a
// crash, which LLVM's CrashRecoveryContext contains. Outside one, a fatal
// error is printed and ends the process, as LLVM's own handling does.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>

#include <string>

namespace ze_driver {
namespace detail {

// Runs `stage` on this thread; false when it crashed (a signal) or LLVM
// reported a fatal error, whose message then is `*fatal` ("" for a crash).
// What the stage was building is not safe to destroy afterwards: the caller
// leaks it. No lock of the caller's may be taken inside `stage`: a crash
// skips its unwinding.
bool runContained(llvm::function_ref<void()> stage, std::string *fatal);

} // namespace detail
} // namespace ze_driver
