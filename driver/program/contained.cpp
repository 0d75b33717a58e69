#include "contained.hpp"

#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ErrorHandling.h>

#include <cstdlib>
#include <mutex>
#include <unistd.h>

namespace ze_driver {
namespace detail {

namespace {

// Where the fatal error of the contained stage running on this thread goes;
// null outside one.
thread_local std::string *fatalMessage = nullptr;

void onFatalError(void *, const char *reason, bool) {
    if (fatalMessage == nullptr) {
        // Not the driver's stage: LLVM ends the process after this returns,
        // and the handler only has to print what it would have printed.
        std::string line = std::string("LLVM ERROR: ") + reason + "\n";
        ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
        (void)ignored;
        return;
    }
    *fatalMessage = reason;
    // A crash, which the stage's CrashRecoveryContext contains (LLVM would
    // call exit() for some fatal errors, which nothing can contain).
    std::abort();
}

} // namespace

bool runContained(llvm::function_ref<void()> stage, std::string *fatal) {
    static std::once_flag enabled;
    std::call_once(enabled, [] {
        llvm::CrashRecoveryContext::Enable();
        llvm::install_fatal_error_handler(onFatalError);
    });
    fatal->clear();
    std::string *outer = fatalMessage;
    fatalMessage = fatal;
    llvm::CrashRecoveryContext context;
    bool finished = context.RunSafely(stage);
    fatalMessage = outer;
    return finished;
}

} // namespace detail
} // namespace ze_driver
