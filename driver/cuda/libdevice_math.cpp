#include "libdevice_math.hpp"

#include "call_rewrite.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace ze_cuda {

namespace {

// OpenCL's name -> libdevice's (float: __nv_<name>f, double: __nv_<name>),
// with the number of arguments.
const std::map<std::string, unsigned> &builtins() {
    static const std::map<std::string, unsigned> table = {
        {"exp", 1},   {"exp2", 1},   {"exp10", 1},  {"expm1", 1}, {"log", 1},   {"log2", 1},
        {"log10", 1}, {"log1p", 1},  {"sin", 1},    {"cos", 1},   {"tan", 1},   {"asin", 1},
        {"acos", 1},  {"atan", 1},   {"atan2", 2},  {"sinh", 1},  {"cosh", 1},  {"tanh", 1},
        {"asinh", 1}, {"acosh", 1},  {"atanh", 1},  {"pow", 2},   {"cbrt", 1},  {"erf", 1},
        {"erfc", 1},  {"tgamma", 1}, {"lgamma", 1}, {"hypot", 2}, {"sinpi", 1}, {"cospi", 1},
        {"rsqrt", 1}};
    return table;
}

// The float functions libdevice has an approximate __nv_fast_ form of.
bool hasFastForm(const std::string &name) {
    return name == "exp" || name == "exp10" || name == "log" || name == "log2" || name == "log10" ||
           name == "sin" || name == "cos" || name == "tan" || name == "pow";
}

void define(llvm::Function &f, const std::string &name, bool fast) {
    llvm::Module &module = *f.getParent();
    llvm::Type *element = f.getReturnType()->getScalarType();
    const bool isFloat = element->isFloatTy();
    std::vector<llvm::Type *> params(f.arg_size(), element);
    const std::string prefix = fast && isFloat && hasFastForm(name) ? "__nv_fast_" : "__nv_";
    llvm::FunctionCallee callee = module.getOrInsertFunction(
        prefix + name + (isFloat ? "f" : ""), llvm::FunctionType::get(element, params, false));
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(f.getContext(), "", &f));
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(f.getReturnType());
    if (!vector) {
        std::vector<llvm::Value *> args;
        for (llvm::Argument &a : f.args())
            args.push_back(&a);
        b.CreateRet(b.CreateCall(callee, args));
    } else {
        llvm::Value *result = llvm::UndefValue::get(vector);
        for (unsigned i = 0; i < vector->getNumElements(); ++i) {
            std::vector<llvm::Value *> args;
            for (llvm::Argument &a : f.args())
                args.push_back(b.CreateExtractElement(&a, i));
            result = b.CreateInsertElement(result, b.CreateCall(callee, args), i);
        }
        b.CreateRet(result);
    }
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
}

// libdevice asks what it is compiled for through __nvvm_reflect("name"),
// which NVIDIA's compilers answer: whether denormals are flushed
// (__CUDA_FTZ), the target (the translation's sm_80: __CUDA_ARCH 800),
// square roots correctly rounded (__CUDA_PREC_SQRT 1). Each call becomes its
// answer.
void answerReflect(llvm::Module &module, bool flushDenormals) {
    llvm::Function *reflect = module.getFunction("__nvvm_reflect");
    if (!reflect)
        return;
    ze_driver::detail::rewriteCalls(
        *reflect, [flushDenormals](llvm::CallInst &call) -> std::optional<llvm::Value *> {
            llvm::StringRef name;
            auto *global =
                llvm::dyn_cast<llvm::GlobalVariable>(call.getArgOperand(0)->stripPointerCasts());
            if (global && global->hasInitializer())
                if (auto *text = llvm::dyn_cast<llvm::ConstantDataArray>(global->getInitializer()))
                    name = text->getAsCString();
            const int answer = name == "__CUDA_ARCH"        ? 800
                               : name == "__CUDA_PREC_SQRT" ? 1
                               : name == "__CUDA_FTZ"       ? int(flushDenormals)
                                                            : 0;
            return llvm::ConstantInt::get(call.getType(), answer);
        });
}

} // namespace

std::string libdevicePath() {
    static const std::string path = [] {
        const char *fromEnvironment = std::getenv("ZE_CUDA_LIBDEVICE");
        std::string p =
            fromEnvironment && *fromEnvironment ? fromEnvironment : ZE_CUDA_LIBDEVICE_DEFAULT;
        return !p.empty() && std::ifstream(p).good() ? p : std::string();
    }();
    return path;
}

unsigned defineFromLibdevice(llvm::Module &module, bool fast) {
    unsigned defined = 0;
    for (llvm::Function &f : module) {
        llvm::StringRef name, params;
        if (!f.isDeclaration() || !ze_driver::detail::demangleName(f.getName(), &name, &params))
            continue;
        auto found = builtins().find(name.str());
        llvm::Type *type = f.getReturnType();
        llvm::Type *element = type->getScalarType();
        if (found == builtins().end() || f.arg_size() != found->second ||
            !(element->isFloatTy() || element->isDoubleTy()))
            continue;
        bool sameTypes = true;
        for (llvm::Argument &a : f.args())
            sameTypes = sameTypes && a.getType() == type;
        if (!sameTypes)
            continue;
        define(f, found->first, fast);
        ++defined;
    }
    return defined;
}

bool linkLibdevice(llvm::Module &module, const std::string &path, bool flushDenormals,
                   std::string *log) {
    // Read once; each translation parses it lazily into its own context.
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> files;
    const llvm::MemoryBuffer *file = nullptr;
    {
        std::lock_guard<std::mutex> lock(mutex);
        std::unique_ptr<llvm::MemoryBuffer> &slot = files[path];
        if (!slot) {
            auto read = llvm::MemoryBuffer::getFile(path);
            if (!read) {
                *log += "PTX translation: cannot read libdevice " + path + ": " +
                        read.getError().message() + "\n";
                return false;
            }
            slot = std::move(*read);
        }
        file = slot.get();
    }
    auto lazy = llvm::getLazyBitcodeModule(file->getMemBufferRef(), module.getContext());
    if (!lazy) {
        *log += "PTX translation: libdevice's bitcode does not load: " +
                llvm::toString(lazy.takeError()) + "\n";
        return false;
    }
    (*lazy)->setDataLayout(module.getDataLayout());
    (*lazy)->setTargetTriple(module.getTargetTriple());
    if (llvm::Linker::linkModules(module, std::move(*lazy), llvm::Linker::LinkOnlyNeeded)) {
        *log += "PTX translation: linking libdevice failed\n";
        return false;
    }
    answerReflect(module, flushDenormals);
    return true;
}

} // namespace ze_cuda
