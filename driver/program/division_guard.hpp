// Integer division the device must not trap on. OpenCL C leaves x / 0 and
// x % 0 unspecified (and INT_MIN / -1 overflows), but a CPU's divide
// instruction raises SIGFPE on them, which would end the host process from
// inside a kernel. Each such division gets a divisor of 1 where it would
// trap: x / 0 becomes x, x % 0 becomes 0, INT_MIN / -1 becomes INT_MIN (the
// wrapped result) and INT_MIN % -1 becomes 0, as on GPUs that do not trap.
#pragma once

namespace llvm {
class Module;
}

namespace ze_driver {
namespace detail {

// Rewrites the divisor of every integer division and remainder whose divisor
// is not a constant that can never trap (scalar or vector, elementwise).
// Returns the number rewritten.
unsigned guardIntegerDivision(llvm::Module &module);

} // namespace detail
} // namespace ze_driver
