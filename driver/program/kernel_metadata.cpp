#include "kernel_metadata.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace ze_driver {
namespace detail {

namespace {

// SPIR address spaces (SPIR 1.2 specification, section 2.2).
constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kConstantAddressSpace = 2;
constexpr unsigned kLocalAddressSpace = 3;

KernelArgInfo argInfo(const llvm::Argument &arg, const llvm::DataLayout &layout) {
    KernelArgInfo info;
    llvm::Type *type = arg.getType();
    // A struct passed by value reaches the kernel as a byval pointer to a
    // private copy; the caller hands over the struct's bytes.
    if (arg.hasByValAttr()) {
        info.kind = ArgKind::Value;
        info.size = layout.getTypeAllocSize(arg.getParamByValType()).getFixedSize();
        return info;
    }
    if (auto *pointer = llvm::dyn_cast<llvm::PointerType>(type)) {
        // SPIR 1.2 spells images and samplers as pointers to named opaque
        // structs (opencl.image2d_ro_t, opencl.sampler_t).
        if (!pointer->isOpaque())
            if (auto *opaque =
                    llvm::dyn_cast<llvm::StructType>(pointer->getNonOpaquePointerElementType());
                opaque && opaque->hasName()) {
                llvm::StringRef name = opaque->getName();
                if (name.startswith("opencl.image")) {
                    info.kind = ArgKind::Image;
                    info.size = sizeof(void *);
                    return info;
                }
                if (name == "opencl.sampler_t") {
                    info.kind = ArgKind::Sampler;
                    info.size = sizeof(void *);
                    return info;
                }
            }
        switch (pointer->getAddressSpace()) {
        case kGlobalAddressSpace:
            info.kind = ArgKind::GlobalPointer;
            info.size = sizeof(void *);
            return info;
        case kConstantAddressSpace:
            info.kind = ArgKind::ConstantPointer;
            info.size = sizeof(void *);
            return info;
        case kLocalAddressSpace:
            info.kind = ArgKind::LocalPointer;
            info.size = 0;
            return info;
        default:
            break; // not a valid kernel argument in OpenCL C; treated as a value
        }
    }
    info.kind = ArgKind::Value;
    info.size = layout.getTypeAllocSize(type).getFixedSize();
    return info;
}

std::string mdString(const llvm::MDNode *node, unsigned index) {
    if (!node || index >= node->getNumOperands())
        return {};
    if (auto *str = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(index).get()))
        return str->getString().str();
    return {};
}

// The integer operands of the function's metadata `name`, or nothing.
std::vector<uint64_t> integers(const llvm::Function &function, const char *name) {
    const llvm::MDNode *node = function.getMetadata(name);
    std::vector<uint64_t> values;
    for (unsigned i = 0; node && i < node->getNumOperands(); ++i) {
        auto *value = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(i));
        if (!value)
            return {};
        values.push_back(value->getZExtValue());
    }
    return values;
}

void readRequiredGroupSize(const llvm::Function &function, uint32_t (&size)[3]) {
    std::vector<uint64_t> values = integers(function, "reqd_work_group_size");
    if (values.size() == 3)
        for (unsigned i = 0; i < 3; ++i)
            size[i] = static_cast<uint32_t>(values[i]);
}

// The attributes the translator records as metadata, written back as the
// OpenCL C that declares them.
std::string sourceAttributes(const llvm::Function &function) {
    static const struct {
        const char *metadata;
        const char *attribute;
        size_t operands;
    } kKnown[] = {{"reqd_work_group_size", "reqd_work_group_size", 3},
                  {"work_group_size_hint", "work_group_size_hint", 3},
                  {"intel_reqd_sub_group_size", "intel_reqd_sub_group_size", 1}};
    std::string text;
    for (const auto &known : kKnown) {
        std::vector<uint64_t> values = integers(function, known.metadata);
        if (values.size() != known.operands)
            continue;
        text += (text.empty() ? "" : " ") + std::string(known.attribute) + "(";
        for (size_t i = 0; i < values.size(); ++i)
            text += (i ? "," : "") + std::to_string(values[i]);
        text += ")";
    }
    return text;
}

} // namespace

std::vector<KernelInfo> kernelInfoFromModule(const llvm::Module &module) {
    const llvm::DataLayout &layout = module.getDataLayout();
    std::vector<KernelInfo> kernels;
    for (const llvm::Function &function : module) {
        if (function.isDeclaration() || function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL)
            continue;
        KernelInfo kernel;
        kernel.name = function.getName().str();
        const llvm::MDNode *typeNames = function.getMetadata("kernel_arg_type");
        for (const llvm::Argument &arg : function.args()) {
            KernelArgInfo info = argInfo(arg, layout);
            info.typeName = mdString(typeNames, arg.getArgNo());
            kernel.args.push_back(std::move(info));
        }
        readRequiredGroupSize(function, kernel.requiredGroupSize);
        kernel.attributes = sourceAttributes(function);
        kernels.push_back(std::move(kernel));
    }
    return kernels;
}

} // namespace detail
} // namespace ze_driver
