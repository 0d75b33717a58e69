// OpenCL C 2.0's work-group collective functions (work_group_all, _any,
// _broadcast, _reduce_<op>, _scan_inclusive_<op>, _scan_exclusive_<op>, op
// add, min or max), which PoCL's kernel library does not define: a module
// calling one would fail to link ("Cannot find symbol
// _Z21work_group_reduce_addi"). Each one the module declares gets a body
// here, on local memory: every work-item stores its value into a slot of a
// work-group scratch array (one __local array of the module, sized for the
// largest work-group), a barrier, each computes its result from the slots it
// needs (all of them for a reduction, those before it for a scan), and a
// barrier again before the array can be reused. The result is exact for
// integers; for floating point it is the in-order sum, one of the orders the
// specification allows.
#pragma once

namespace llvm {
class Module;
}

namespace ze_driver {
namespace detail {

// The most work-items of a work-group on the OpenCL backend's devices (PoCL
// reports 4096); the scratch array holds as many 8-byte slots.
constexpr unsigned kMaxWorkGroupItems = 4096;

// Returns the number of functions defined. `maxItems`: the most work-items
// of a work-group on the device the module is for (the scratch array's
// slots: a GPU's local memory is scarce).
unsigned defineWorkGroupCollectives(llvm::Module &module,
                                    unsigned maxItems = kMaxWorkGroupItems);

} // namespace detail
} // namespace ze_driver
