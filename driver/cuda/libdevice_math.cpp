#include "libdevice_math.hpp"

#include "call_rewrite.hpp"
#include "lanes.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
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
    defineByScalarCalls(
        f, module.getOrInsertFunction(prefix + name + (isFloat ? "f" : ""),
                                      llvm::FunctionType::get(element, params, false)));
}

// A sine and cosine pair of functions and libdevice's function computing
// both with one argument reduction (float's, fast float's, double's).
struct SineCosine {
    const char *sine, *cosine;
    const char *both, *bothFast, *bothDouble;
};
constexpr SineCosine kSincos = {"sin", "cos", "__nv_sincosf", "__nv_fast_sincosf", "__nv_sincos"};
constexpr SineCosine kSinCosPi = {"sinpi", "cospi", "__nv_sincospif", nullptr,
                                  "__nv_sincospi"}; // paired without unsafe math only

// OpenCL's sincos(x, &c): sine returned, cosine stored, from libdevice's
// sincos (or sincospi for `pair` kSinCosPi), which reduces the argument once
// for both (lane by lane for vectors, through two private words that
// inlining removes).
void defineSincos(llvm::Function &f, bool fast, const SineCosine &pair = kSincos) {
    llvm::Module &module = *f.getParent();
    llvm::Type *element = f.getReturnType()->getScalarType();
    const bool isFloat = element->isFloatTy();
    llvm::Type *slot = llvm::PointerType::get(element, 0);
    llvm::FunctionCallee callee =
        module.getOrInsertFunction(std::string(fast && isFloat ? pair.bothFast
                                               : isFloat       ? pair.both
                                                               : pair.bothDouble),
                                   llvm::FunctionType::get(llvm::Type::getVoidTy(f.getContext()),
                                                           {element, slot, slot}, false));
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(f.getContext(), "", &f));
    llvm::Value *sine = b.CreateAlloca(element), *cosine = b.CreateAlloca(element);
    auto lane = [&](llvm::Value *x, llvm::Value **s, llvm::Value **c) {
        b.CreateCall(callee,
                     {x, b.CreatePointerCast(sine, slot), b.CreatePointerCast(cosine, slot)});
        *s = b.CreateLoad(element, sine);
        *c = b.CreateLoad(element, cosine);
    };
    llvm::Value *x = f.getArg(0), *s = nullptr, *c = nullptr;
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(f.getReturnType())) {
        s = c = llvm::UndefValue::get(vector);
        for (unsigned i = 0; i < vector->getNumElements(); ++i) {
            llvm::Value *si = nullptr, *ci = nullptr;
            lane(b.CreateExtractElement(x, i), &si, &ci);
            s = b.CreateInsertElement(s, si, i);
            c = b.CreateInsertElement(c, ci, i);
        }
    } else {
        lane(x, &s, &c);
    }
    b.CreateStore(c, f.getArg(1));
    b.CreateRet(s);
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
}

// sin(x) and cos(x) of the same x in one block (a rotation, an FFT's
// twiddle factor) become one sincos, and sinpi(x) and cospi(x) one
// sincospi: one argument reduction where there were two, as NVIDIA's
// compilers do. Each pair calls a helper defined as OpenCL's sincos is.
unsigned pairSinesWithCosines(llvm::Module &module, bool fast, const SineCosine &pair) {
    std::map<std::string, llvm::Function *> sines, cosines; // by parameter types
    for (llvm::Function &f : module) {
        llvm::StringRef name, params;
        if (f.isDeclaration() && f.arg_size() == 1 &&
            ze_driver::detail::demangleName(f.getName(), &name, &params)) {
            if (name == pair.sine)
                sines[params.str()] = &f;
            else if (name == pair.cosine)
                cosines[params.str()] = &f;
        }
    }
    unsigned paired = 0;
    for (const auto &[params, sine] : sines) {
        auto cosine = cosines.find(params);
        if (cosine == cosines.end())
            continue;
        llvm::Type *type = sine->getReturnType();
        llvm::Function *helper = nullptr;
        std::vector<llvm::CallInst *> sineCalls;
        for (llvm::User *user : sine->users())
            if (auto *call = llvm::dyn_cast<llvm::CallInst>(user))
                sineCalls.push_back(call);
        for (llvm::CallInst *s : sineCalls) {
            llvm::CallInst *c = nullptr;
            for (llvm::User *user : s->getArgOperand(0)->users())
                if (auto *call = llvm::dyn_cast<llvm::CallInst>(user);
                    call && call->getCalledFunction() == cosine->second &&
                    call->getParent() == s->getParent())
                    c = call;
            if (!c)
                continue;
            if (!helper) {
                helper = llvm::Function::Create(
                    llvm::FunctionType::get(type, {type, llvm::PointerType::get(type, 0)}, false),
                    llvm::GlobalValue::InternalLinkage,
                    std::string("__ze_") + pair.both + "_" + params, module);
                defineSincos(*helper, fast, pair);
            }
            llvm::Function &caller = *s->getFunction();
            llvm::IRBuilder<> b(&*caller.getEntryBlock().getFirstInsertionPt());
            llvm::Value *slot = b.CreateAlloca(type);
            b.SetInsertPoint(s->comesBefore(c) ? s : c);
            llvm::Value *sineValue = b.CreateCall(helper, {s->getArgOperand(0), slot});
            llvm::Value *cosineValue = b.CreateLoad(type, slot);
            s->replaceAllUsesWith(sineValue);
            c->replaceAllUsesWith(cosineValue);
            s->eraseFromParent();
            c->eraseFromParent();
            ++paired;
        }
    }
    return paired;
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

// libdevice rounds to the nearest integer, ties to even, with
// llvm.nvvm.round.{f,ftz.f,d}: PTX's cvt.rni, its rintf is that call alone.
// LLVM 15's InstCombine takes them for llvm.round, ties away from zero, which
// NVPTX expands into ten instructions (a rounding of expm1f's, powf's,
// sinpif's reductions; and rintf's value on ties). llvm.rint is cvt.rni.
void roundTiesToEven(llvm::Module &module) {
    for (const char *name : {"llvm.nvvm.round.f", "llvm.nvvm.round.ftz.f", "llvm.nvvm.round.d"}) {
        llvm::Function *round = module.getFunction(name);
        if (!round)
            continue;
        llvm::Function *rint = llvm::Intrinsic::getDeclaration(&module, llvm::Intrinsic::rint,
                                                               {round->getReturnType()});
        ze_driver::detail::rewriteCalls(*round, [rint](llvm::CallInst &call) {
            llvm::IRBuilder<> b(&call);
            return std::optional<llvm::Value *>(b.CreateCall(rint, {call.getArgOperand(0)}));
        });
    }
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
    // Under unsafe math libdevice's separate sinpi and cospi, inlined with
    // the fast-math flags, come out shorter than its sincospi (the builtins
    // suite's trigonometric chain: 140 PTX instructions against 312): only
    // sin and cos are paired then.
    unsigned defined = pairSinesWithCosines(module, fast, kSincos) +
                       (fast ? 0 : pairSinesWithCosines(module, fast, kSinCosPi));
    for (llvm::Function &f : module) {
        llvm::StringRef name, params;
        if (!f.isDeclaration() || !ze_driver::detail::demangleName(f.getName(), &name, &params))
            continue;
        llvm::Type *type = f.getReturnType();
        llvm::Type *element = type->getScalarType();
        if (name == "sincos" && f.arg_size() == 2 && f.getArg(0)->getType() == type &&
            f.getArg(1)->getType()->isPointerTy() &&
            (element->isFloatTy() || element->isDoubleTy())) {
            defineSincos(f, fast);
            ++defined;
            continue;
        }
        auto found = builtins().find(name.str());
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
    roundTiesToEven(module);
    return true;
}

} // namespace ze_cuda
