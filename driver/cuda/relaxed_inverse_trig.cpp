#include "relaxed_inverse_trig.hpp"

#include "float_bits.hpp"
#include "lanes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <regex>
#include <string>
#include <utility>

namespace ze_cuda {

namespace {

// Fitted in relative error (weighted least squares toward minimax, on
// Chebyshev nodes): asin(a) = a + a^3 P(a^2) on a in [0, 1/2], atan(t) =
// t + t^3 Q(t^2) on t in [0, tan(pi/8)].
constexpr float kAsin[] = {0.16666673f, 0.074988134f, 0.045009896f, 0.026499419f, 0.038196184f};
constexpr float kAtan[] = {-0.33333331f, 0.19999546f, -0.14264120f, 0.10745260f, -0.064563595f};
constexpr float kPi = 3.14159265358979f;

// The inverse trigonometric functions of one float, on an IRBuilder.
class InverseTrig {
public:
    explicit InverseTrig(llvm::IRBuilder<> &b) : b_(b) {}

    llvm::Value *asin(llvm::Value *x) {
        auto [p, big] = asinCore(x);
        return copySign(b_.CreateSelect(big, fma(c(-2), p, c(kPi / 2)), p), x);
    }
    llvm::Value *acos(llvm::Value *x) {
        auto [p, big] = asinCore(x);
        llvm::Value *doubled = b_.CreateFMul(c(2), p);
        llvm::Value *far =
            b_.CreateSelect(b_.CreateFCmpOGT(x, c(0)), doubled, b_.CreateFSub(c(kPi), doubled));
        return b_.CreateSelect(big, far, b_.CreateFSub(c(kPi / 2), copySign(p, x)));
    }
    llvm::Value *atan(llvm::Value *x) {
        llvm::Value *a = abs(x);
        llvm::Value *inverse = b_.CreateFCmpOGT(a, c(1));
        llvm::Value *r = atanCore(b_.CreateSelect(inverse, b_.CreateFDiv(c(1), a), a));
        return copySign(b_.CreateSelect(inverse, b_.CreateFSub(c(kPi / 2), r), r), x);
    }
    llvm::Value *atan2(llvm::Value *y, llvm::Value *x) {
        llvm::Value *ax = abs(x), *ay = abs(y);
        llvm::Value *most = b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, ax, ay);
        llvm::Value *least = b_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, ax, ay);
        llvm::Value *t =
            b_.CreateSelect(b_.CreateFCmpOEQ(most, c(0)), c(0), b_.CreateFDiv(least, most));
        llvm::Value *r = atanCore(t);
        r = b_.CreateSelect(b_.CreateFCmpOGT(ay, ax), b_.CreateFSub(c(kPi / 2), r), r);
        llvm::Value *negativeX = b_.CreateICmpSLT(b_.CreateBitCast(x, b_.getInt32Ty()),
                                                  b_.getInt32(0)); // -0 too
        return copySign(b_.CreateSelect(negativeX, b_.CreateFSub(c(kPi), r), r), y);
    }

private:
    llvm::Value *c(float v) { return llvm::ConstantFP::get(b_.getFloatTy(), v); }
    llvm::Value *abs(llvm::Value *v) { return b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); }
    llvm::Value *fma(llvm::Value *a, llvm::Value *m, llvm::Value *add) {
        return b_.CreateIntrinsic(llvm::Intrinsic::fma, {b_.getFloatTy()}, {a, m, add});
    }
    // magnitude (>= 0 here) with sign's sign, on the bits.
    llvm::Value *copySign(llvm::Value *magnitude, llvm::Value *sign) {
        return flipSignBy(b_, magnitude, sign);
    }
    // s + s^3 * poly(s^2) for one of the fitted polynomials.
    llvm::Value *odd(const float (&coefficients)[5], llvm::Value *s) {
        llvm::Value *z = b_.CreateFMul(s, s);
        llvm::Value *p = c(coefficients[4]);
        for (int i = 3; i >= 0; --i)
            p = fma(p, z, c(coefficients[i]));
        return fma(b_.CreateFMul(s, z), p, s);
    }
    // asin(s) for the reduced s, and whether |x| > 1/2 (then s =
    // sqrt((1 - |x|) / 2)).
    std::pair<llvm::Value *, llvm::Value *> asinCore(llvm::Value *x) {
        llvm::Value *a = abs(x);
        llvm::Value *big = b_.CreateFCmpOGT(a, c(0.5f));
        llvm::Value *reduced = b_.CreateUnaryIntrinsic(
            llvm::Intrinsic::sqrt, b_.CreateFMul(c(0.5f), b_.CreateFSub(c(1), a)));
        return {odd(kAsin, b_.CreateSelect(big, reduced, a)), big};
    }
    // atan(t) for t in [0, 1].
    llvm::Value *atanCore(llvm::Value *t) {
        llvm::Value *middle = b_.CreateFCmpOGT(t, c(0.41421356f)); // tan(pi/8)
        llvm::Value *u = b_.CreateSelect(
            middle, b_.CreateFDiv(b_.CreateFSub(t, c(1)), b_.CreateFAdd(t, c(1))), t);
        llvm::Value *r = odd(kAtan, u);
        return b_.CreateSelect(middle, b_.CreateFAdd(r, c(kPi / 4)), r);
    }

    llvm::IRBuilder<> &b_;
};

} // namespace

void relaxedInverseTrig(llvm::Module &module, bool unsafe) {
    if (!unsafe)
        return;
    // <length><name>: asin, acos, atan of float and its vectors (one
    // argument), atan2 (two).
    static const std::regex mangled(R"(_Z(4asin|4acos|4atan|5atan2)(f|Dv\d+_f)(f|S_)?)");
    for (llvm::Function &f : module) {
        std::smatch match;
        const std::string name = f.getName().str();
        llvm::Type *type = f.getReturnType();
        if (!f.isDeclaration() || !std::regex_match(name, match, mangled) ||
            !type->getScalarType()->isFloatTy())
            continue;
        const std::string what = match[1].str().substr(1);
        if (f.arg_size() != (what == "atan2" ? 2u : 1u))
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        InverseTrig trig(b);
        b.CreateRet(fromLanes(b, type, [&](unsigned e) {
            llvm::Value *x = laneOf(b, f.getArg(0), e);
            return what == "asin"   ? trig.asin(x)
                   : what == "acos" ? trig.acos(x)
                   : what == "atan" ? trig.atan(x)
                                    : trig.atan2(x, laneOf(b, f.getArg(1), e));
        }));
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

} // namespace ze_cuda
