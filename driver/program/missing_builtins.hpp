// OpenCL C builtins that PoCL's kernel library does not define for SPIR
// input, although clang declares them and PoCL compiles them from source
// (its own headers turn them into other calls): a translated module calling
// one would fail to link in clBuildProgram ("Cannot find symbol
// _Z9mem_fencej in kernel library"). Their calls become what they mean:
//  - mem_fence, read_mem_fence, write_mem_fence (and atomic_work_item_fence,
//    which the translator writes as mem_fence): an LLVM fence;
//  - wait_group_events: a work-group barrier on local and global memory
//    (PoCL's async_work_group_copy is a copy by the work-group's items, done
//    once they all passed the barrier);
//  - bitfield_insert, bitfield_extract_signed, bitfield_extract_unsigned
//    (cl_khr_extended_bit_ops): shifts and masks;
//  - half_<f> (the 14 reduced-precision math functions): <f> at full
//    precision, which is within their error bound (half_divide and
//    half_recip: a division).
#pragma once

namespace llvm {
class Module;
}

namespace ze_driver {
namespace detail {

// Returns the number of calls rewritten.
unsigned resolveMissingBuiltins(llvm::Module &module);

} // namespace detail
} // namespace ze_driver
