#include "math_options.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Target/TargetOptions.h>

#include <sstream>

namespace ze_cuda {

MathOptions parseMathOptions(const std::string &flags) {
    MathOptions o;
    std::istringstream words(flags);
    for (std::string w; words >> w;) {
        if (w == "-cl-mad-enable") {
            o.contract = true;
        } else if (w == "-cl-no-signed-zeros") {
            o.noSignedZeros = true;
        } else if (w == "-cl-finite-math-only") {
            o.finite = true;
        } else if (w == "-cl-unsafe-math-optimizations") {
            o.unsafe = o.contract = o.noSignedZeros = true;
        } else if (w == "-cl-fp32-correctly-rounded-divide-sqrt") {
            o.correctlyRoundedDivide = true;
        } else if (w == "-cl-denorms-are-zero") {
            o.flushDenormals = true;
        } else if (w == "-cl-fast-relaxed-math") {
            o.unsafe = o.contract = o.noSignedZeros = o.finite = o.flushDenormals = true;
        }
    }
    return o;
}

void addFastMathFlags(llvm::Module &module, const MathOptions &o) {
    llvm::FastMathFlags flags;
    flags.setAllowContract(o.contract);
    flags.setNoSignedZeros(o.noSignedZeros);
    if (o.finite) {
        flags.setNoNaNs();
        flags.setNoInfs();
    }
    if (o.unsafe) {
        flags.setAllowReassoc();
        flags.setAllowReciprocal();
        flags.setApproxFunc();
    }
    if (!flags.any())
        return;
    for (llvm::Function &f : module)
        for (llvm::BasicBlock &block : f)
            for (llvm::Instruction &i : block)
                if (llvm::isa<llvm::FPMathOperator>(i)) {
                    llvm::FastMathFlags combined = i.getFastMathFlags();
                    combined |= flags;
                    i.setFastMathFlags(combined);
                }
}

void setMathAttributes(llvm::Module &module, const MathOptions &o) {
    auto yes = [](bool b) { return b ? "true" : "false"; };
    for (llvm::Function &f : module) {
        if (f.isDeclaration())
            continue;
        f.addFnAttr("unsafe-fp-math", yes(o.unsafe));
        f.addFnAttr("no-infs-fp-math", yes(o.finite));
        f.addFnAttr("no-nans-fp-math", yes(o.finite));
        f.addFnAttr("no-signed-zeros-fp-math", yes(o.noSignedZeros));
        f.addFnAttr("approx-func-fp-math", yes(o.unsafe));
        if (o.flushDenormals)
            f.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    }
}

void setTargetMathOptions(llvm::TargetOptions &target, const MathOptions &o) {
    target.UnsafeFPMath = o.unsafe;
    target.NoInfsFPMath = o.finite;
    target.NoNaNsFPMath = o.finite;
    target.NoSignedZerosFPMath = o.noSignedZeros;
    target.AllowFPOpFusion = o.contract ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Standard;
}

} // namespace ze_cuda
