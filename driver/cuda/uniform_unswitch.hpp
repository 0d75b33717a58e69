// Loop unswitching of conditions every work-item of a launch shares.
//
// A loop that tests, in every iteration, a condition nothing in the loop
// changes (GEGL's motion blur: `num_steps == 1 ? 0 : step / (num_steps - 1)`)
// pays the test and its branch or select each time, and its body is split
// around them. NVIDIA's OpenCL makes two loops, one for each value of the
// condition, chosen once before the loop. LLVM 15 does that (non-trivial
// unswitching) only on targets without divergent branches: on a GPU the
// work-items of a warp may disagree on a condition, and running both loops
// one after the other would cost more than the test. Here a condition is
// unswitched only where every work-item computes the same value: from the
// kernel's arguments, constants and the work-group's ids and sizes alone.
//
// Limits: innermost loops of at most 240 instructions, one
// condition per loop, none holding a barrier or another convergent call,
// and only where the condition picks between two parts of the loop (a
// branch both of whose targets stay in the loop, or a select); a test that
// leaves the loop is LLVM's trivial unswitching, which it does on NVPTX.
// The pass runs after each InstCombine, the first times before LLVM's loop
// passes (rotation, LICM, the unroll hints of unroll_hints.hpp, unrolling),
// which then treat the two loops as any other; the two are marked and not
// unswitched again.
#pragma once

#include <llvm/Passes/PassBuilder.h>

namespace ze_cuda {

// Registers the unswitching on `builder` before the pipeline is built.
void addUniformUnswitch(llvm::PassBuilder &builder);

} // namespace ze_cuda
