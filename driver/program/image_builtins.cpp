#include "image_builtins.hpp"

#include "call_rewrite.hpp"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <string>

namespace ze_driver {
namespace detail {

unsigned resolveImageBuiltins(llvm::Module &module) {
    static const char *const kImages[] = {"14ocl_image3d_wo", "14ocl_image3d_rw",
                                          "20ocl_image2d_array_wo", "20ocl_image2d_array_rw"};
    unsigned rewritten = 0;
    for (const char *image : kImages) {
        const std::string arguments = std::string(image) + "Dv4_iS0_";
        llvm::Function *builtin = module.getFunction("_Z12write_imagei" + arguments);
        if (builtin == nullptr || !builtin->isDeclaration() || builtin->arg_size() != 3)
            continue;
        auto *imageType = llvm::dyn_cast<llvm::PointerType>(builtin->getArg(0)->getType());
        if (imageType == nullptr)
            continue;
        llvm::Type *flatImage = llvm::PointerType::getWithSamePointeeType(imageType, 0);
        llvm::FunctionType *type = llvm::FunctionType::get(
            builtin->getReturnType(),
            {flatImage, builtin->getArg(1)->getType(), builtin->getArg(2)->getType()}, false);
        llvm::FunctionCallee implementation =
            module.getOrInsertFunction("_Z16_cl_write_imagei" + arguments, type);
        rewritten += rewriteCalls(*builtin, [&](llvm::CallInst &call) {
            llvm::IRBuilder<> builder(&call);
            llvm::CallInst *replacement = builder.CreateCall(
                implementation, {builder.CreateAddrSpaceCast(call.getArgOperand(0), flatImage),
                                 call.getArgOperand(1), call.getArgOperand(2)});
            replacement->setCallingConv(call.getCallingConv());
            return std::optional<llvm::Value *>(nullptr);
        });
    }
    return rewritten;
}

} // namespace detail
} // namespace ze_driver
