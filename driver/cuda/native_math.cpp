#include "native_math.hpp"

#include "call_rewrite.hpp"
#include "lanes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <cmath>
#include <vector>

namespace ze_cuda {

namespace {

using llvm::Intrinsic::ID;

// What a builtin computes, from one or two floats, with the approximate
// instructions.
enum class Kind {
    exp,
    exp2,
    exp10,
    log,
    log2,
    log10,
    sin,
    cos,
    tan,
    powr,
    sqrt,
    rsqrt,
    recip,
    divide
};

struct Builtin {
    const char *name;
    Kind kind;
};

// native_* takes every one; half_* only those within its 8192 ulp
// (native_math.hpp says what the others are).
constexpr Builtin kBuiltins[] = {
    {"native_exp", Kind::exp},     {"native_exp2", Kind::exp2},     {"native_exp10", Kind::exp10},
    {"native_log", Kind::log},     {"native_log2", Kind::log2},     {"native_log10", Kind::log10},
    {"native_sin", Kind::sin},     {"native_cos", Kind::cos},       {"native_tan", Kind::tan},
    {"native_powr", Kind::powr},   {"native_sqrt", Kind::sqrt},     {"native_rsqrt", Kind::rsqrt},
    {"native_recip", Kind::recip}, {"native_divide", Kind::divide}, {"half_exp", Kind::exp},
    {"half_exp2", Kind::exp2},     {"half_exp10", Kind::exp10},     {"half_sqrt", Kind::sqrt},
    {"half_rsqrt", Kind::rsqrt},   {"half_recip", Kind::recip},     {"half_divide", Kind::divide},
};

llvm::Value *approx(llvm::IRBuilder<> &b, ID id, llvm::Value *x) {
    return b.CreateIntrinsic(id, {}, {x});
}

llvm::Value *divide(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
    return b.CreateIntrinsic(llvm::Intrinsic::nvvm_div_approx_f, {}, {x, y});
}

// One float lane of `kind`.
llvm::Value *compute(llvm::IRBuilder<> &b, Kind kind, llvm::Value *x, llvm::Value *y) {
    auto constant = [&](double v) { return llvm::ConstantFP::get(b.getFloatTy(), v); };
    auto ex2 = [&](llvm::Value *v) { return approx(b, llvm::Intrinsic::nvvm_ex2_approx_f, v); };
    auto lg2 = [&](llvm::Value *v) { return approx(b, llvm::Intrinsic::nvvm_lg2_approx_f, v); };
    switch (kind) {
    case Kind::exp:
        return ex2(b.CreateFMul(x, constant(M_LOG2E)));
    case Kind::exp2:
        return ex2(x);
    case Kind::exp10:
        return ex2(b.CreateFMul(x, constant(std::log2(10.0))));
    case Kind::log:
        return b.CreateFMul(lg2(x), constant(M_LN2));
    case Kind::log2:
        return lg2(x);
    case Kind::log10:
        return b.CreateFMul(lg2(x), constant(std::log10(2.0)));
    case Kind::sin:
        return approx(b, llvm::Intrinsic::nvvm_sin_approx_f, x);
    case Kind::cos:
        return approx(b, llvm::Intrinsic::nvvm_cos_approx_f, x);
    case Kind::tan:
        return divide(b, approx(b, llvm::Intrinsic::nvvm_sin_approx_f, x),
                      approx(b, llvm::Intrinsic::nvvm_cos_approx_f, x));
    case Kind::powr:
        return ex2(b.CreateFMul(y, lg2(x)));
    case Kind::sqrt:
        return approx(b, llvm::Intrinsic::nvvm_sqrt_approx_f, x);
    case Kind::rsqrt:
        return approx(b, llvm::Intrinsic::nvvm_rsqrt_approx_f, x);
    case Kind::recip:
        return divide(b, constant(1.0), x);
    case Kind::divide:
        return divide(b, x, y);
    }
    return nullptr;
}

// The half_* builtins the approximate instructions do not meet everywhere,
// and the precise builtin (its float form's name) each is otherwise (null:
// left to libclc).
struct HalfBuiltin {
    Builtin approximate;
    const char *precise; // mangled
};
constexpr HalfBuiltin kHalfBuiltins[] = {
    {{"half_log", Kind::log}, "_Z3logf"},       {{"half_log2", Kind::log2}, "_Z4log2f"},
    {{"half_log10", Kind::log10}, "_Z5log10f"}, {{"half_sin", Kind::sin}, "_Z3sinf"},
    {{"half_cos", Kind::cos}, "_Z3cosf"},       {{"half_tan", Kind::tan}, "_Z3tanf"},
    {{"half_powr", Kind::powr}, nullptr}, // libclc's powr (libdevice has pow only)
};

// The builtin `name` stands for, if it is one of kBuiltins (or sqrt, when
// it may be approximate).
const Builtin *find(llvm::StringRef name, bool approximateSqrt) {
    static constexpr Builtin kSqrt = {"sqrt", Kind::sqrt};
    for (const Builtin &builtin : kBuiltins)
        if (name == builtin.name)
            return &builtin;
    return approximateSqrt && name == kSqrt.name ? &kSqrt : nullptr;
}

// The entry of kHalfBuiltins for `name`, or null.
const HalfBuiltin *findHalf(llvm::StringRef name) {
    for (const HalfBuiltin &half : kHalfBuiltins)
        if (name == half.approximate.name)
            return &half;
    return nullptr;
}

// Whether `type` is float or a vector of floats.
bool isFloats(llvm::Type *type) {
    return type->getScalarType()->isFloatTy();
}

// Defines `f` lane by lane (the instructions are scalar) by `lane`, which
// makes one float result from one or two floats (the second null for one).
template <class Lane> void defineByLanes(llvm::Function &f, Lane lane) {
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(f.getContext(), "", &f));
    llvm::Value *x = f.getArg(0);
    llvm::Value *y = f.arg_size() > 1 ? f.getArg(1) : nullptr;
    b.CreateRet(fromLanes(b, f.getReturnType(), [&](unsigned e) {
        return lane(b, laneOf(b, x, e), y ? laneOf(b, y, e) : nullptr);
    }));
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
}

} // namespace

unsigned defineNativeMath(llvm::Module &module, bool approximateSqrt, bool unsafe) {
    unsigned defined = 0;
    // Functions are added (the precise builtins' declarations) while the
    // module's are visited: the visit is of the list before.
    std::vector<llvm::Function *> functions;
    for (llvm::Function &f : module)
        functions.push_back(&f);
    for (llvm::Function *f : functions) {
        llvm::StringRef name, params;
        if (!f->isDeclaration() || !ze_driver::detail::demangleName(f->getName(), &name, &params))
            continue;
        // A half_* function of kHalfBuiltins is the approximate one under
        // unsafe math, the precise one otherwise.
        const HalfBuiltin *half = findHalf(name);
        const Builtin *builtin =
            half ? (unsafe ? &half->approximate : nullptr) : find(name, approximateSqrt);
        const char *precise = half && !unsafe ? half->precise : nullptr;
        const bool twoArgs =
            builtin && (builtin->kind == Kind::powr || builtin->kind == Kind::divide);
        if ((!builtin && !precise) || f->arg_size() != (twoArgs ? 2u : 1u) ||
            !isFloats(f->getReturnType()))
            continue;
        bool sameTypes = true;
        for (llvm::Argument &arg : f->args())
            sameTypes = sameTypes && arg.getType() == f->getReturnType();
        if (!sameTypes)
            continue;
        if (builtin) {
            defineByLanes(
                *f, [kind = builtin->kind](llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y) {
                    return compute(b, kind, x, y);
                });
        } else {
            // The precise builtin of the same type in its place: libdevice's
            // where it is installed (defined after this), libclc's
            // otherwise; called where half_* was, so that half_sin(x) and
            // half_cos(x) of one x pair into one sincos as sin and cos do
            // (libdevice_math.hpp).
            llvm::StringRef base = llvm::StringRef(precise).drop_back(); // its "f"
            llvm::FunctionCallee callee =
                module.getOrInsertFunction((base + params).str(), f->getFunctionType());
            f->replaceAllUsesWith(callee.getCallee());
            f->eraseFromParent();
        }
        ++defined;
    }
    return defined;
}

} // namespace ze_cuda
