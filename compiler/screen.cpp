#include "screen.hpp"

#include "mangled_name.hpp"
#include "type_walk.hpp"

#include <clang/Basic/SourceLocation.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace imex_l0::compiler {

namespace {

// clang marks each inline assembly call with its source location (!srcloc).
std::string locationOf(const llvm::CallBase &call, const clang::SourceManager &sources) {
    const llvm::MDNode *srcloc = call.getMetadata("srcloc");
    if (srcloc && srcloc->getNumOperands() > 0) {
        if (auto *value = llvm::mdconst::dyn_extract<llvm::ConstantInt>(srcloc->getOperand(0))) {
            auto loc = clang::SourceLocation::getFromRawEncoding(unsigned(value->getZExtValue()));
            clang::PresumedLoc p = sources.getPresumedLoc(loc);
            if (p.isValid())
                return std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ":" +
                       std::to_string(p.getColumn());
        }
    }
    return "kernel.cl";
}

// OpenCL C 3.0's integer dot products: dot() of integer vectors, dot_acc_sat,
// dot_4x8packed_* (Itanium-mangled names of the builtins).
bool isIntegerDotProduct(llvm::StringRef name) {
    if (name.startswith("_Z11dot_acc_sat") || name.contains("dot_4x8packed") ||
        name.contains("dot_acc_sat_4x8packed"))
        return true;
    if (!name.startswith("_Z3dotDv"))
        return false;
    // _Z3dotDv<N>_<element>...: f (float), d (double), Dh (half) are the
    // floating-point forms.
    size_t underscore = name.find('_', 3);
    if (underscore == llvm::StringRef::npos || underscore + 1 >= name.size())
        return false;
    char element = name[underscore + 1];
    return element != 'f' && element != 'd' && element != 'D';
}

// The builtins of cl_khr_subgroup_non_uniform_vote, _ballot,
// _non_uniform_arithmetic, _shuffle, _shuffle_relative and _clustered_reduce:
// the translator makes them GroupNonUniform* instructions or SubgroupXxMask
// built-ins, all SPIR-V 1.3. (cl_khr_subgroups' sub_group_all, _reduce_* and
// the others are SPIR-V 1.0 Group* instructions.)
bool needsGroupNonUniform(llvm::StringRef name) {
    llvm::StringRef builtin = unmangledName(name);
    if (builtin.consume_front("get_sub_group_"))
        return builtin.endswith("_mask");
    if (!builtin.consume_front("sub_group_"))
        return false;
    return builtin == "elect" || builtin == "broadcast_first" || builtin == "inverse_ballot" ||
           builtin.startswith("non_uniform_") || builtin.startswith("ballot") ||
           builtin.startswith("shuffle") || builtin.startswith("clustered_reduce_");
}

// cl_khr_subgroup_rotate: the translator exit()s for want of
// SPV_KHR_subgroup_rotate.
bool isSubGroupRotate(llvm::StringRef name) {
    llvm::StringRef builtin = unmangledName(name);
    return builtin == "sub_group_rotate" || builtin == "sub_group_clustered_rotate";
}

// OpenCL C 2.0's device-side enqueue: enqueue_kernel (clang's
// __enqueue_kernel_*), the kernel queries on blocks (__get_kernel_*_impl),
// the device queue, its events and ndrange builtins. Neither driver has a
// device queue; the drivers' device libraries define none of them and the
// translator asserts on some (a queue compared with 0).
bool isDeviceEnqueue(llvm::StringRef name) {
    if (name.startswith("__enqueue_kernel") || name.startswith("__get_kernel_"))
        return true;
    llvm::StringRef builtin = unmangledName(name);
    return builtin == "get_default_queue" || builtin == "enqueue_marker" ||
           builtin == "create_user_event" || builtin == "retain_event" ||
           builtin == "release_event" || builtin == "set_user_event_status" ||
           builtin == "is_valid_event" || builtin == "capture_event_profiling_info" ||
           builtin.startswith("ndrange_");
}

// Pipes' builtins (clang's __read_pipe_2, __reserve_write_pipe,
// __get_pipe_num_packets_ro, ...): the drivers have no pipe storage and
// their device libraries do not define them.
bool isPipeBuiltin(llvm::StringRef name) {
    return name.startswith("__") && name.contains("_pipe");
}

// Why no driver here runs the builtin `name` (device-side enqueue, pipes):
// the end of its compile error; nullptr for any other function.
const char *missingFeature(llvm::StringRef name) {
    if (isDeviceEnqueue(name))
        return "is device-side enqueue, which this library's drivers do not support (they have "
               "no device queue): enqueue the kernel from the host";
    if (isPipeBuiltin(name))
        return "is a pipe builtin, and this library's drivers have no pipes: pass the data "
               "through a global buffer";
    return nullptr;
}

// The OpenCL C name of such a builtin: __enqueue_kernel_basic ->
// enqueue_kernel, __get_kernel_work_group_size_impl ->
// get_kernel_work_group_size, __read_pipe_2 -> read_pipe.
std::string sourceName(llvm::StringRef name) {
    if (name.startswith("__enqueue_kernel"))
        return "enqueue_kernel";
    llvm::StringRef builtin = unmangledName(name);
    if (!builtin.empty())
        return builtin.str();
    name.consume_front("__");
    for (const char *suffix : {"_impl", "_2", "_4", "_ro", "_wo"})
        name.consume_back(suffix);
    return name.str();
}

std::string hex(uint64_t v) {
    return "0x" + llvm::utohexstr(v, /*LowerCase=*/true);
}

// What is wrong with the sampler_t constant `bits` (OpenCL C's CLK_* fields:
// normalized coordinates 0x1, addressing 0xe, filter 0x30), or "" if it is
// a sampler. The translator writes any value into the SPIR-V, which then
// fails validation with the raw operand.
std::string invalidSampler(uint64_t bits) {
    std::string why;
    if (bits & ~uint64_t(0x3f))
        why += "bits " + hex(bits & ~uint64_t(0x3f)) + " are no sampler field; ";
    if ((bits & 0xe) > 0x8)
        why += "its addressing bits " + hex(bits & 0xe) + " are no addressing mode; ";
    if ((bits & 0x30) != 0x10 && (bits & 0x30) != 0x20)
        why += (bits & 0x30) == 0 ? "it names no filter mode; " : "it names both filter modes; ";
    return why;
}

std::string versionText(uint32_t version) {
    return std::to_string(version >> 16) + "." + std::to_string((version >> 8) & 0xff);
}

} // namespace

std::string zeroLengthArrays(const llvm::Module &module) {
    // One visited set for the whole module: the first match ends the search.
    llvm::SmallPtrSet<llvm::Type *, 32> seen;
    auto hasZeroLengthArray = [&seen](llvm::Type *type) {
        return mentionsType(
            type,
            [](llvm::Type *t) {
                auto *array = llvm::dyn_cast<llvm::ArrayType>(t);
                return array && array->getNumElements() == 0;
            },
            seen);
    };
    auto error = [](const std::string &where) {
        return "kernel.cl: error: a zero-length array (in " + where +
               ") has no SPIR-V equivalent: SPIR-V arrays have at least one element; give it "
               "one, or index a pointer instead\n";
    };
    for (const llvm::GlobalVariable &global : module.globals())
        if (hasZeroLengthArray(global.getValueType()))
            return error("program-scope variable '" + global.getName().str() + "'");
    for (const llvm::Function &function : module) {
        if (hasZeroLengthArray(function.getFunctionType()))
            return error("the signature of function '" + function.getName().str() + "'");
        for (const llvm::BasicBlock &block : function) {
            for (const llvm::Instruction &inst : block) {
                bool found = hasZeroLengthArray(inst.getType());
                if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst))
                    found = found || hasZeroLengthArray(alloca->getAllocatedType());
                if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&inst))
                    found = found || hasZeroLengthArray(gep->getSourceElementType());
                for (const llvm::Use &operand : inst.operands())
                    found = found || hasZeroLengthArray(operand->getType());
                if (found)
                    return error("function '" + function.getName().str() + "'");
            }
        }
    }
    return "";
}

std::string screenForTranslator(const llvm::Module &module, const clang::SourceManager &sources,
                                uint32_t spirvVersion) {
    std::string errors;
    // One error per builtin, not per call.
    llvm::SmallPtrSet<const llvm::Function *, 8> reported;
    for (const llvm::Function &f : module) {
        for (const llvm::BasicBlock &block : f) {
            for (const llvm::Instruction &inst : block) {
                auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
                if (!call)
                    continue;
                if (call->isInlineAsm()) {
                    errors += locationOf(*call, sources) +
                              ": error: inline assembly is not supported: the SPIR-V this "
                              "compiler produces has no way to carry it (in function '" +
                              f.getName().str() + "')\n";
                } else if (const llvm::Function *callee = call->getCalledFunction();
                           callee && isIntegerDotProduct(callee->getName())) {
                    errors += "kernel.cl: error: integer dot product ('" + callee->getName().str() +
                              "' in function '" + f.getName().str() +
                              "') needs the SPV_KHR_integer_dot_product extension, which this "
                              "compiler does not target: compute it with integer multiplies "
                              "and adds\n";
                } else if (const char *missing =
                               callee ? missingFeature(callee->getName()) : nullptr;
                           missing && reported.insert(callee).second) {
                    errors += "kernel.cl: error: '" + sourceName(callee->getName()) +
                              "' (in function '" + f.getName().str() + "') " + missing + "\n";
                } else if (callee && callee->getName() == "__translate_sampler_initializer" &&
                           call->arg_size() == 1) {
                    // clang's form of a sampler_t constant at each use.
                    auto *bits = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
                    std::string why = bits ? invalidSampler(bits->getZExtValue()) : "";
                    if (!why.empty())
                        errors += "kernel.cl: error: the sampler_t constant " +
                                  hex(bits->getZExtValue()) + " (in function '" +
                                  f.getName().str() + "') is not a sampler: " + why +
                                  "make it of CLK_NORMALIZED_COORDS_TRUE or _FALSE, one "
                                  "CLK_ADDRESS_* mode and CLK_FILTER_NEAREST or "
                                  "CLK_FILTER_LINEAR\n";
                } else if (callee && isSubGroupRotate(callee->getName()) &&
                           reported.insert(callee).second) {
                    errors += "kernel.cl: error: '" + unmangledName(callee->getName()).str() +
                              "' (in function '" + f.getName().str() +
                              "') needs the SPV_KHR_subgroup_rotate extension, which this "
                              "compiler does not target: use sub_group_shuffle where the "
                              "device has it, or local memory\n";
                } else if (callee && spirvVersion < 0x00010300 &&
                           needsGroupNonUniform(callee->getName()) &&
                           reported.insert(callee).second) {
                    errors += "kernel.cl: error: '" + unmangledName(callee->getName()).str() +
                              "' (in function '" + f.getName().str() +
                              "') is a cl_khr_subgroup_* extension builtin, which needs "
                              "SPIR-V 1.3 (GroupNonUniform); this device takes SPIR-V " +
                              versionText(spirvVersion) +
                              ": use the cl_khr_subgroups builtins (sub_group_broadcast, "
                              "sub_group_reduce_*, sub_group_scan_*, sub_group_all/any) or "
                              "local memory\n";
                }
            }
        }
    }
    return errors;
}

} // namespace imex_l0::compiler
