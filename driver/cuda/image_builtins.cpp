#include "image_builtins.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <vector>

namespace ze_cuda {

// image_builtins.cl as SPIR bitcode, embedded at build time.
extern const unsigned char kImageBuiltinsBitcode[];
extern const size_t kImageBuiltinsBitcodeSize;

bool isImageBuiltin(llvm::StringRef name) {
    return name.contains("ocl_image") || name.contains("ocl_sampler") ||
           name == "__translate_sampler_initializer";
}

namespace {

// The library asks for an image argument's descriptor with __ze_image (one
// overload per image type: "_Z10__ze_image" then the type) and for a
// sampler's bits with __ze_sampler; the SPIR-V reader turns a constant
// sampler into __translate_sampler_initializer(bits). Image and sampler
// values are pointers here (image.cpp passes a descriptor's address and a
// sampler's bits as 64-bit parameters), so each is a cast.
void defineAccessors(llvm::Module &module) {
    for (llvm::Function &f : module) {
        if (!f.isDeclaration() || f.arg_size() != 1)
            continue;
        llvm::StringRef name = f.getName();
        bool image = name.startswith("_Z10__ze_image");
        bool sampler = name == "__ze_sampler";
        bool initializer = name == "__translate_sampler_initializer";
        if (!image && !sampler && !initializer)
            continue;
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *arg = f.getArg(0);
        llvm::Type *result = f.getReturnType();
        if (image)
            b.CreateRet(b.CreatePointerBitCastOrAddrSpaceCast(arg, result));
        else if (sampler)
            b.CreateRet(b.CreateTrunc(b.CreatePtrToInt(arg, b.getInt64Ty()), result));
        else
            b.CreateRet(b.CreateIntToPtr(b.CreateZExt(arg, b.getInt64Ty()), result));
    }
}

} // namespace

bool linkImageBuiltins(llvm::Module &module, std::string *log) {
    bool calls = false;
    for (const llvm::Function &f : module)
        calls = calls || (f.isDeclaration() && isImageBuiltin(f.getName()));
    if (!calls)
        return true;
    auto buffer = llvm::MemoryBuffer::getMemBuffer(
        llvm::StringRef(reinterpret_cast<const char *>(kImageBuiltinsBitcode),
                        kImageBuiltinsBitcodeSize),
        "image_builtins", false);
    auto library = llvm::parseBitcodeFile(buffer->getMemBufferRef(), module.getContext());
    if (!library) {
        *log += "PTX translation: the image builtins do not load: " +
                llvm::toString(library.takeError()) + "\n";
        return false;
    }
    (*library)->setDataLayout(module.getDataLayout());
    (*library)->setTargetTriple(module.getTargetTriple());
    if (llvm::Linker::linkModules(module, std::move(*library), llvm::Linker::LinkOnlyNeeded)) {
        *log += "PTX translation: linking the image builtins failed\n";
        return false;
    }
    defineAccessors(module);
    return true;
}

} // namespace ze_cuda
