// One test per defect class of translator 15 that legalize.hpp removes. Each
// test compiles its own minimal reproducer twice:
//   - naive: clang's own -O<n> pipeline, then writeSpirv -> SPIRV-Tools, which
//     must fail (the test documents the defect);
//   - ours: clang with -disable-llvm-passes, optimizeAndLegalize, writeSpirv,
//     validateSpirv == "", then a run on the project's Level Zero driver whose
//     results are checked against the same computation on the host.
#include "legalize.hpp"
#include "legalize_passes.hpp"
#include "legalize_test_support.hpp"

#include <gtest/gtest.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>

namespace {

using imex_l0::compiler::optimizeAndLegalize;
using imex_l0::compiler::validateSpirv;
using legalize_test::compileOpenCL;
using legalize_test::countInstructions;
using legalize_test::translate;

constexpr uint32_t spirv12 = 0x00010200;

// The process-wide device; Level Zero is initialised once.
legalize_test::Device &device() {
    static legalize_test::Device instance;
    return instance;
}

struct Reproducer {
    const char *source;
    unsigned optLevel = 2;
    uint32_t globalSize = 64;
    int32_t n = 0;
    std::vector<int32_t> in;
    std::vector<int32_t> outInitial;
    // The kernel's effect on `out`, computed on the host.
    std::function<void(const std::vector<int32_t> &in, std::vector<int32_t> &out, int32_t n,
                       uint32_t i)>
        host;
};

// What the naive pipeline makes of a reproducer: "" if it produced valid
// SPIR-V, otherwise the translator's or the validator's complaint. The
// translator runs in a child process: on an error, translator 15 prints it
// and calls exit().
std::string naiveProblem(const Reproducer &r) {
    llvm::LLVMContext context;
    std::string log;
    auto module = compileOpenCL(context, r.source, r.optLevel, /*clangPasses=*/true, &log);
    if (!module)
        return "clang failed: " + log;
    return legalize_test::inChildProcess([&]() -> std::string {
        std::vector<uint32_t> spirv;
        std::string error;
        if (!translate(*module, &spirv, &error))
            return "translator: " + error;
        return validateSpirv(spirv.data(), spirv.size() * 4, spirv12);
    });
}

// Our pipeline up to validated SPIR-V; the module is kept for inspection.
std::vector<uint32_t> oursSpirv(const Reproducer &r, llvm::LLVMContext &context,
                                std::unique_ptr<llvm::Module> *keep = nullptr) {
    std::string log;
    auto module = compileOpenCL(context, r.source, r.optLevel, /*clangPasses=*/false, &log);
    EXPECT_TRUE(module) << log;
    if (!module)
        return {};
    EXPECT_EQ(optimizeAndLegalize(*module, r.optLevel), "");
    std::vector<uint32_t> spirv;
    std::string error;
    EXPECT_TRUE(translate(*module, &spirv, &error)) << error;
    EXPECT_EQ(validateSpirv(spirv.data(), spirv.size() * 4, spirv12), "");
    if (keep)
        *keep = std::move(module);
    return spirv;
}

void runAndCheck(const Reproducer &r, const std::vector<uint32_t> &spirv) {
    if (!device().unavailable().empty())
        GTEST_SKIP() << "not run on a device: " << device().unavailable();
    std::string error;
    std::vector<int32_t> out =
        device().run(spirv, "k", r.in, r.outInitial, r.n, r.globalSize, &error);
    ASSERT_EQ(out.size(), r.outInitial.size()) << error;
    std::vector<int32_t> expected = r.outInitial;
    for (uint32_t i = 0; i < r.globalSize; ++i)
        r.host(r.in, expected, r.n, i);
    for (size_t k = 0; k < expected.size(); ++k)
        ASSERT_EQ(out[k], expected[k]) << "out[" << k << "]";
}

std::vector<int32_t> smallValues(size_t count, uint32_t seed, int32_t modulus) {
    std::vector<int32_t> values = legalize_test::testInput(count, seed);
    for (int32_t &value : values)
        value %= modulus;
    return values;
}

// ---------------------------------------------------------------------------
// freeze: DivRemPairs freezes the operands shared by `/` and `%`.

Reproducer freezeReproducer() {
    Reproducer r;
    r.source = R"(
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  out[i] = (i % n) * 100 + i / n;
})";
    r.n = 7;
    r.in = {0};
    r.outInitial.assign(r.globalSize, -1);
    r.host = [](const std::vector<int32_t> &, std::vector<int32_t> &out, int32_t n, uint32_t i) {
        const int32_t x = static_cast<int32_t>(i);
        out[i] = (x % n) * 100 + x / n;
    };
    return r;
}

TEST(LegalizeFreeze, NaivePipelineCannotTranslateFreeze) {
    const std::string problem = naiveProblem(freezeReproducer());
    EXPECT_NE(problem.find("freeze"), std::string::npos) << problem;
}

TEST(LegalizeFreeze, OursRemovesFreezeValidatesAndComputes) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module;
    const Reproducer r = freezeReproducer();
    std::vector<uint32_t> spirv = oursSpirv(r, context, &module);
    ASSERT_TRUE(module);
    EXPECT_EQ(countInstructions(*module, "freeze"), 0u);
    runAndCheck(r, spirv);
}

TEST(LegalizeFreeze, FreezeOfUndefBecomesZero) {
    llvm::LLVMContext context;
    std::string log;
    auto module = legalize_test::parseIR(context, R"(
define i32 @f(i32 %x) {
  %a = freeze i32 %x
  %b = freeze i32 undef
  %c = add i32 %a, %b
  ret i32 %c
})",
                                         &log);
    ASSERT_TRUE(module) << log;
    llvm::Function &function = *module->getFunction("f");
    EXPECT_TRUE(imex_l0::compiler::RemoveFreezePass::removeFreeze(function));
    EXPECT_EQ(countInstructions(*module, "freeze"), 0u);
    const llvm::Instruction &add = *function.getEntryBlock().begin();
    EXPECT_EQ(add.getOperand(0), function.getArg(0));
    EXPECT_TRUE(llvm::isa<llvm::Constant>(add.getOperand(1)) &&
                llvm::cast<llvm::Constant>(add.getOperand(1))->isNullValue());
}

// ---------------------------------------------------------------------------
// Bit selects (compiler/bit_select.hpp): MD5's F and G feeding its sums.
// Without the rewrite, Reassociate turns the select's `or` into an `add` and
// spreads its halves over the sum.

Reproducer bitSelectReproducer() {
    Reproducer r;
    r.source = R"(
#define F(x, y, z) ((x & y) | ((~x) & z))
#define G(x, y, z) ((x & z) | ((~z) & y))
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  uint x = in[i], y = in[i + 1], z = in[i + 2];
  uint a = x + F(x, y, z) + 0xd76aa478u + (uint)n;
  out[i] = (int)(a + G(y, z, a) + 0xe8c7b756u);
})";
    r.optLevel = 3; // the pipeline with Reassociate (-O2 leaves it to the device's compiler)
    r.n = 12345;
    r.in = legalize_test::testInput(r.globalSize + 2, 7);
    r.outInitial.assign(r.globalSize, -1);
    r.host = [](const std::vector<int32_t> &in, std::vector<int32_t> &out, int32_t n, uint32_t i) {
        const uint32_t x = uint32_t(in[i]), y = uint32_t(in[i + 1]), z = uint32_t(in[i + 2]);
        const uint32_t a = x + ((x & y) | (~x & z)) + 0xd76aa478u + uint32_t(n);
        out[i] = int32_t(a + ((y & a) | (~a & z)) + 0xe8c7b756u);
    };
    return r;
}

TEST(BitSelect, StaysOneSelectThroughTheSumAndComputes) {
    const Reproducer r = bitSelectReproducer();
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module;
    std::vector<uint32_t> spirv = oursSpirv(r, context, &module);
    ASSERT_TRUE(module);
    // Each select is ((a ^ b) & m) ^ b: no `or` is left to become an add.
    EXPECT_EQ(countInstructions(*module, "or"), 0u);
    EXPECT_EQ(countInstructions(*module, "and"), 2u);
    runAndCheck(r, spirv);
}

// ---------------------------------------------------------------------------
// Entry-block allocas: InstCombine can leave a cast between two of them, and
// translator 15 then writes an instruction before an OpVariable.

TEST(LegalizeEntryAllocas, AllocasComeFirstAndTheModuleValidates) {
    llvm::LLVMContext context;
    std::string log;
    auto module = legalize_test::parseIR(context, R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
define spir_kernel void @k(i32 addrspace(1)* %out) {
entry:
  %a = alloca i64, align 8
  %cast = bitcast i64* %a to i32*
  %b = alloca [4 x i32], align 4
  store i32 7, i32* %cast, align 4
  %first = getelementptr [4 x i32], [4 x i32]* %b, i64 0, i64 0
  store i32 5, i32* %first, align 4
  %x = load i32, i32* %cast, align 4
  %y = load i32, i32* %first, align 4
  %sum = add i32 %x, %y
  store i32 %sum, i32 addrspace(1)* %out, align 4
  ret void
})",
                                         &log);
    ASSERT_TRUE(module) << log;
    llvm::Function &function = *module->getFunction("k");
    llvm::FunctionAnalysisManager analyses;
    imex_l0::compiler::EntryAllocasFirstPass().run(function, analyses);
    auto it = function.getEntryBlock().begin();
    EXPECT_TRUE(llvm::isa<llvm::AllocaInst>(*it++));
    EXPECT_TRUE(llvm::isa<llvm::AllocaInst>(*it++));
    EXPECT_TRUE(llvm::isa<llvm::BitCastInst>(*it));
    std::vector<uint32_t> spirv;
    std::string error;
    ASSERT_TRUE(legalize_test::translate(*module, &spirv, &error)) << error;
    EXPECT_EQ(imex_l0::compiler::validateSpirv(spirv.data(), spirv.size() * 4, 0x00010200), "");
}

// ---------------------------------------------------------------------------
// Block order: loops with early exits leave blocks before their dominators.

Reproducer blockOrderReproducer() {
    Reproducer r;
    r.source = R"(
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int r = -1;
  for (int j = 0; j < n; ++j) {
    int v = in[i * n + j];
    if (v == 0) { r = j; break; }
    if (v < 0) { r = -2 - j; break; }
    for (int q = 0; q < v && q < 8; ++q) {
      if (in[(i * n + q) % n] == 7) goto done;
    }
  }
done:
  out[i] = r;
})";
    r.n = 9;
    r.in = smallValues(r.globalSize * r.n, 3, 10);
    r.outInitial.assign(r.globalSize, 12345);
    r.host = [](const std::vector<int32_t> &in, std::vector<int32_t> &out, int32_t n,
                uint32_t gid) {
        const int32_t i = static_cast<int32_t>(gid);
        int32_t result = -1;
        for (int32_t j = 0; j < n; ++j) {
            const int32_t v = in[i * n + j];
            if (v == 0) {
                result = j;
                break;
            }
            if (v < 0) {
                result = -2 - j;
                break;
            }
            for (int32_t q = 0; q < v && q < 8; ++q)
                if (in[(i * n + q) % n] == 7)
                    goto done;
        }
    done:
        out[i] = result;
    };
    return r;
}

TEST(LegalizeBlockOrder, NaivePipelineFailsValidation) {
    const std::string problem = naiveProblem(blockOrderReproducer());
    EXPECT_TRUE(problem.find("has not been defined") != std::string::npos ||
                problem.find("before its dominator") != std::string::npos)
        << problem;
}

TEST(LegalizeBlockOrder, OursValidatesAndComputes) {
    llvm::LLVMContext context;
    const Reproducer r = blockOrderReproducer();
    runAndCheck(r, oursSpirv(r, context));
}

TEST(LegalizeBlockOrder, EveryBlockFollowsItsDominatorAndUnreachableBlocksGo) {
    llvm::LLVMContext context;
    std::string log;
    auto module = legalize_test::parseIR(context, R"(
define i32 @f(i1 %c) {
entry:
  br label %head
exit:
  %r = phi i32 [ %v, %head ], [ 0, %dead ]
  ret i32 %r
dead:
  br label %exit
body:
  %w = add i32 %v, 1
  br label %head
head:
  %v = phi i32 [ 0, %entry ], [ %w, %body ]
  br i1 %c, label %body, label %exit
})",
                                         &log);
    ASSERT_TRUE(module) << log;
    llvm::Function &function = *module->getFunction("f");
    EXPECT_TRUE(imex_l0::compiler::DominatorBlockOrderPass::orderBlocks(function));
    EXPECT_EQ(function.size(), 4u) << "the unreachable block is gone";
    llvm::DominatorTree dominators(function);
    std::map<const llvm::BasicBlock *, size_t> position;
    for (const llvm::BasicBlock &block : function)
        position.emplace(&block, position.size());
    EXPECT_EQ(&function.front(), &function.getEntryBlock());
    for (const llvm::BasicBlock &block : function) {
        if (&block == &function.getEntryBlock())
            continue;
        const llvm::BasicBlock *dominator = dominators.getNode(&block)->getIDom()->getBlock();
        EXPECT_LT(position[dominator], position[&block]) << block.getName().str();
    }
}

// ---------------------------------------------------------------------------
// Block order after loop simplification: a loop's exit that is also reached
// from outside the loop gets a dedicated exit block from LoopSimplify, which
// the translator runs for itself (it needs loops in that form for their
// metadata); the block it adds went before its dominator.

Reproducer loopExitReproducer() {
    Reproducer r;
    r.source = R"(
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int v[12];
#pragma unroll
  for (int k = 0; k < 12; k++) v[k] = in[i * 12 + k];
  for (int k = 0; k < n; k++) {
    for (int j = k; j < 6; j++) {
      int a = v[j], b = v[11 - j];
      v[j] = min(a, b); v[11 - j] = max(a, b);
    }
    for (int j = k + 1; j <= 6; j++) {
      int a = v[k], b = v[j];
      v[k] = min(a, b); v[j] = max(a, b);
    }
    for (int j = 10 - k; j >= 6; j--) {
      int a = v[j], b = v[11 - k];
      v[j] = min(a, b); v[11 - k] = max(a, b);
    }
  }
  out[i] = v[n / 2] * 1000 + v[0];
})";
    r.n = 5;
    r.in = smallValues(r.globalSize * 12, 7, 100);
    r.outInitial.assign(r.globalSize, 0);
    r.host = [](const std::vector<int32_t> &in, std::vector<int32_t> &out, int32_t n,
                uint32_t gid) {
        int32_t v[12];
        for (int k = 0; k < 12; k++)
            v[k] = in[gid * 12 + k];
        auto order = [](int32_t &a, int32_t &b) {
            const int32_t lo = std::min(a, b), hi = std::max(a, b);
            a = lo;
            b = hi;
        };
        for (int k = 0; k < n; k++) {
            for (int j = k; j < 6; j++)
                order(v[j], v[11 - j]);
            for (int j = k + 1; j <= 6; j++)
                order(v[k], v[j]);
            for (int j = 10 - k; j >= 6; j--)
                order(v[j], v[11 - k]);
        }
        out[gid] = v[n / 2] * 1000 + v[0];
    };
    return r;
}

TEST(LegalizeLoopExitOrder, NaivePipelineFailsValidation) {
    const std::string problem = naiveProblem(loopExitReproducer());
    EXPECT_NE(problem.find("before its dominator"), std::string::npos) << problem;
}

TEST(LegalizeLoopExitOrder, OursValidatesAndComputes) {
    llvm::LLVMContext context;
    const Reproducer r = loopExitReproducer();
    runAndCheck(r, oursSpirv(r, context));
}

// ---------------------------------------------------------------------------
// Integer widths: SimplifyCFG narrows a `switch (v & 3)` to an i2 switch.

Reproducer switchWidthReproducer() {
    Reproducer r;
    r.source = R"(
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < n; ++j) {
    int v = in[i * n + j];
    if (v < 0) break;
    switch (v & 3) {
    case 0: acc += v; break;
    case 1: acc -= v; continue;
    case 2: acc *= 3; break;
    default: if (acc > 1000) goto end; acc ^= v;
    }
    if (acc == 77) return;
  }
end:
  out[i] = acc;
})";
    r.n = 6;
    r.in = smallValues(r.globalSize * r.n, 5, 1000);
    for (size_t k = 0; k < r.in.size(); k += 3)
        r.in[k] = r.in[k] < 0 ? -r.in[k] : r.in[k]; // fewer early breaks
    r.outInitial.assign(r.globalSize, 999999);
    r.host = [](const std::vector<int32_t> &in, std::vector<int32_t> &out, int32_t n,
                uint32_t gid) {
        const int32_t i = static_cast<int32_t>(gid);
        int32_t acc = 0;
        for (int32_t j = 0; j < n; ++j) {
            const int32_t v = in[i * n + j];
            if (v < 0)
                break;
            switch (v & 3) {
            case 0:
                acc += v;
                break;
            case 1:
                acc -= v;
                continue;
            case 2:
                acc *= 3;
                break;
            default:
                if (acc > 1000)
                    goto end;
                acc ^= v;
            }
            if (acc == 77)
                return;
        }
    end:
        out[i] = acc;
    };
    return r;
}

// Translator 15 does not report an illegal width: it ends the process.
TEST(LegalizeIntegerWidths, NaivePipelineKillsTheProcessInTheTranslator) {
    llvm::LLVMContext context;
    std::string log;
    auto module = compileOpenCL(context, switchWidthReproducer().source, 2, true, &log);
    ASSERT_TRUE(module) << log;
    ASSERT_NE(imex_l0::compiler::findIllegalIntegerType(*module->getFunction("k")), nullptr);
    const std::string problem = naiveProblem(switchWidthReproducer());
    EXPECT_NE(problem.find("child exited"), std::string::npos) << problem;
    EXPECT_NE(problem.find("InvalidBitWidth"), std::string::npos) << problem;
}

TEST(LegalizeIntegerWidths, OursValidatesAndComputes) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module;
    const Reproducer r = switchWidthReproducer();
    std::vector<uint32_t> spirv = oursSpirv(r, context, &module);
    ASSERT_TRUE(module);
    for (const llvm::Function &function : *module)
        EXPECT_EQ(imex_l0::compiler::findIllegalIntegerType(function), nullptr);
    runAndCheck(r, spirv);
}

// The rewriting itself, on clang's own -O2 output (which has the i2 switch):
// legalised, it must validate and compute the same results.
TEST(LegalizeIntegerWidths, RewritingClangsI2SwitchKeepsResults) {
    llvm::LLVMContext context;
    std::string log;
    const Reproducer r = switchWidthReproducer();
    auto module = compileOpenCL(context, r.source, 2, true, &log);
    ASSERT_TRUE(module) << log;
    for (llvm::Function &function : *module) {
        EXPECT_EQ(imex_l0::compiler::legalizeIntegerWidths(function), "");
        imex_l0::compiler::DominatorBlockOrderPass::orderBlocks(function);
        EXPECT_EQ(imex_l0::compiler::findIllegalIntegerType(function), nullptr);
    }
    std::vector<uint32_t> spirv;
    std::string error;
    ASSERT_TRUE(translate(*module, &spirv, &error)) << error;
    ASSERT_EQ(validateSpirv(spirv.data(), spirv.size() * 4, spirv12), "");
    runAndCheck(r, spirv);
}

// ---------------------------------------------------------------------------
// Vector select on a scalar condition (SPIR-V 1.2 needs a vector condition).

Reproducer vectorSelectReproducer() {
    Reproducer r;
    r.source = R"(
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int2 a = (int2)(in[2 * i], in[2 * i + 1]);
  int2 b = a * n;
  int2 r = in[i] > 0 ? a : b;
  out[2 * i] = r.x;
  out[2 * i + 1] = r.y;
})";
    r.n = -3;
    r.in = smallValues(r.globalSize * 2, 7, 10000);
    r.outInitial.assign(r.globalSize * 2, 0);
    r.host = [](const std::vector<int32_t> &in, std::vector<int32_t> &out, int32_t n, uint32_t i) {
        const bool positive = in[i] > 0;
        out[2 * i] = positive ? in[2 * i] : in[2 * i] * n;
        out[2 * i + 1] = positive ? in[2 * i + 1] : in[2 * i + 1] * n;
    };
    return r;
}

TEST(LegalizeVectorSelect, NaivePipelineFailsValidation) {
    const std::string problem = naiveProblem(vectorSelectReproducer());
    EXPECT_NE(problem.find("condition to be equal"), std::string::npos) << problem;
}

TEST(LegalizeVectorSelect, OursValidatesAndComputes) {
    llvm::LLVMContext context;
    const Reproducer r = vectorSelectReproducer();
    runAndCheck(r, oursSpirv(r, context));
}

// ---------------------------------------------------------------------------
// memmove: MemCpyOpt turns a struct copy through a temporary into memmove,
// which the translator lowers with a variable outside the entry block.

Reproducer memmoveReproducer() {
    Reproducer r;
    r.source = R"(
typedef struct { int key; float weight; int payload[4]; } Record;
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  __global Record *records = (__global Record *)out;
  Record copy;
  if (i < n) {
    copy = records[(i * 5) % n];
    records[n + i] = copy;
  }
})";
    r.n = 48;
    r.in = {0};
    r.outInitial = legalize_test::testInput(2 * r.n * 6, 11);
    r.host = [](const std::vector<int32_t> &, std::vector<int32_t> &out, int32_t n, uint32_t gid) {
        const int32_t i = static_cast<int32_t>(gid);
        if (i < n)
            for (int k = 0; k < 6; ++k)
                out[(n + i) * 6 + k] = out[((i * 5) % n) * 6 + k];
    };
    return r;
}

TEST(LegalizeMemMove, NaivePipelineFailsValidation) {
    const std::string problem = naiveProblem(memmoveReproducer());
    EXPECT_NE(problem.find("OpVariable"), std::string::npos) << problem;
}

TEST(LegalizeMemMove, OursValidatesAndComputes) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module;
    const Reproducer r = memmoveReproducer();
    std::vector<uint32_t> spirv = oursSpirv(r, context, &module);
    ASSERT_TRUE(module);
    runAndCheck(r, spirv);
}

// The three lowerings of memmove (constant length through a temporary,
// variable length as a loop choosing its direction at run time), on
// overlapping ranges in both directions, against std::memmove.
TEST(LegalizeMemMove, OverlappingMovesMatchStdMemmove) {
    llvm::LLVMContext context;
    std::string log;
    auto module = legalize_test::parseIR(context, R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
declare void @llvm.memmove.p1i8.p1i8.i64(i8 addrspace(1)* nocapture writeonly, i8 addrspace(1)* nocapture readonly, i64, i1 immarg)
define spir_kernel void @k(i32 addrspace(1)* %in, i32 addrspace(1)* %out, i32 %n) {
entry:
  %base = bitcast i32 addrspace(1)* %out to i8 addrspace(1)*
  %len32 = shl i32 %n, 2
  %len = zext i32 %len32 to i64
  %up = getelementptr inbounds i8, i8 addrspace(1)* %base, i64 12
  call void @llvm.memmove.p1i8.p1i8.i64(i8 addrspace(1)* align 4 %up, i8 addrspace(1)* align 4 %base, i64 %len, i1 false)
  %down.dst = getelementptr inbounds i8, i8 addrspace(1)* %base, i64 160
  %down.src = getelementptr inbounds i8, i8 addrspace(1)* %base, i64 172
  call void @llvm.memmove.p1i8.p1i8.i64(i8 addrspace(1)* align 4 %down.dst, i8 addrspace(1)* align 4 %down.src, i64 %len, i1 false)
  %c.src = getelementptr inbounds i8, i8 addrspace(1)* %base, i64 320
  %c.dst = getelementptr inbounds i8, i8 addrspace(1)* %base, i64 328
  call void @llvm.memmove.p1i8.p1i8.i64(i8 addrspace(1)* align 4 %c.dst, i8 addrspace(1)* align 4 %c.src, i64 24, i1 false)
  ret void
})",
                                         &log);
    ASSERT_TRUE(module) << log;
    llvm::Function &function = *module->getFunction("k");
    EXPECT_TRUE(imex_l0::compiler::MemMoveLoweringPass::lowerMemMoves(function));
    imex_l0::compiler::DominatorBlockOrderPass::orderBlocks(function);
    EXPECT_EQ(module->getFunction("llvm.memmove.p1i8.p1i8.i64")->getNumUses(), 0u);
    std::vector<uint32_t> spirv;
    std::string error;
    ASSERT_TRUE(translate(*module, &spirv, &error)) << error;
    ASSERT_EQ(validateSpirv(spirv.data(), spirv.size() * 4, spirv12), "");

    if (!device().unavailable().empty())
        GTEST_SKIP() << "not run on a device: " << device().unavailable();
    constexpr int32_t n = 20;
    const std::vector<int32_t> initial = legalize_test::testInput(100, 23);
    std::vector<int32_t> out = device().run(spirv, "k", {0}, initial, n, 1, &error);
    ASSERT_EQ(out.size(), initial.size()) << error;
    std::vector<int32_t> expected = initial;
    auto *bytes = reinterpret_cast<unsigned char *>(expected.data());
    std::memmove(bytes + 12, bytes, n * 4);
    std::memmove(bytes + 160, bytes + 172, n * 4);
    std::memmove(bytes + 328, bytes + 320, 24);
    EXPECT_EQ(out, expected);
}

// ---------------------------------------------------------------------------
// Switch cases sharing a target: each phi lists the switching block once per
// edge; an OpPhi must name each parent block once.

Reproducer sharedCaseTargetReproducer() {
    Reproducer r;
    r.source = R"(
int classify(int x, int y) {
  switch (x) {
  case 3: case 7: case 12: case 20: return 0;
  case 4: return y + 1;
  case 9: return y * 2;
  default: return y - x;
  }
}
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  out[i] = classify(in[i] % 24, i + n);
})";
    r.n = 5;
    r.in = smallValues(r.globalSize, 17, 24);
    for (int32_t &value : r.in)
        value = value < 0 ? -value : value;
    r.outInitial.assign(r.globalSize, 0);
    r.host = [](const std::vector<int32_t> &in, std::vector<int32_t> &out, int32_t n, uint32_t i) {
        const int32_t x = in[i] % 24;
        const int32_t y = static_cast<int32_t>(i) + n;
        switch (x) {
        case 3:
        case 7:
        case 12:
        case 20:
            out[i] = 0;
            break;
        case 4:
            out[i] = y + 1;
            break;
        case 9:
            out[i] = y * 2;
            break;
        default:
            out[i] = y - x;
            break;
        }
    };
    return r;
}

TEST(LegalizeSharedCaseTargets, NaivePipelineFailsValidation) {
    const std::string problem = naiveProblem(sharedCaseTargetReproducer());
    EXPECT_NE(problem.find("OpPhi"), std::string::npos) << problem;
}

TEST(LegalizeSharedCaseTargets, OursValidatesAndComputes) {
    llvm::LLVMContext context;
    const Reproducer r = sharedCaseTargetReproducer();
    runAndCheck(r, oursSpirv(r, context));
}

// ---------------------------------------------------------------------------
// Lookup tables: with i32 declared native (which keeps odd widths away),
// SimplifyCFG would turn this switch into a table in address space 0 (private
// memory at module scope: invalid SPIR-V). Ours builds no lookup tables.

Reproducer lookupTableReproducer() {
    Reproducer r;
    r.source = R"(
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int v;
  switch (in[i]) {
  case 0: v = 1100; break;
  case 1: v = 2300; break;
  case 2: v = 3700; break;
  case 3: v = 4100; break;
  case 4: v = 5900; break;
  case 5: v = 6700; break;
  case 6: v = 7300; break;
  case 7: v = 8900; break;
  case 8: v = 9700; break;
  default: v = -1; break;
  }
  out[i] = v * n;
})";
    r.n = 3;
    r.in = smallValues(r.globalSize, 19, 11);
    r.outInitial.assign(r.globalSize, 0);
    r.host = [](const std::vector<int32_t> &in, std::vector<int32_t> &out, int32_t n, uint32_t i) {
        static const int32_t table[9] = {1100, 2300, 3700, 4100, 5900, 6700, 7300, 8900, 9700};
        out[i] = (in[i] >= 0 && in[i] <= 8 ? table[in[i]] : -1) * n;
    };
    return r;
}

TEST(LegalizeLookupTables, OursBuildsNoPrivateTablesAndComputes) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module;
    const Reproducer r = lookupTableReproducer();
    std::vector<uint32_t> spirv = oursSpirv(r, context, &module);
    ASSERT_TRUE(module);
    for (const llvm::GlobalVariable &global : module->globals())
        EXPECT_NE(global.getAddressSpace(), 0u) << global.getName().str();
    runAndCheck(r, spirv);
}

// ---------------------------------------------------------------------------
// A private array with an initialiser at -O0 becomes a module-scope constant
// used from a helper function; SPIR-V 1.2 has no entry-point interface rule
// for it (SPIR-V 1.4 does). Writing 1.2 is what keeps it valid.

Reproducer privateArrayReproducer() {
    Reproducer r;
    r.source = R"(
int pick(int i) {
  int table[5] = {3, 1, 4, 1, 5};
  return table[i % 5];
}
__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  out[i] = pick(i) * n + in[i];
})";
    r.optLevel = 0;
    r.n = 10;
    r.in = legalize_test::testInput(r.globalSize, 13);
    r.outInitial.assign(r.globalSize, 0);
    r.host = [](const std::vector<int32_t> &in, std::vector<int32_t> &out, int32_t n, uint32_t i) {
        static const int32_t table[5] = {3, 1, 4, 1, 5};
        out[i] = table[i % 5] * n + in[i];
    };
    return r;
}

TEST(LegalizePrivateArray, OursAtO0ValidatesAsSpirv12AndComputes) {
    llvm::LLVMContext context;
    const Reproducer r = privateArrayReproducer();
    runAndCheck(r, oursSpirv(r, context));
}

// ---------------------------------------------------------------------------
// validateSpirv

TEST(ValidateSpirv, RejectsBrokenInput) {
    const uint32_t garbage[] = {0x07230203u, 0x00010200u, 0, 1, 0, 0xdeadbeefu};
    EXPECT_NE(validateSpirv(garbage, sizeof garbage, spirv12), "");
    EXPECT_NE(validateSpirv(garbage, 3, spirv12), "");
    EXPECT_NE(validateSpirv(nullptr, 0, spirv12), "");
}

TEST(ValidateSpirv, AcceptsValidAndRejectsANewerVersionThanAsked) {
    llvm::LLVMContext context;
    const Reproducer r = freezeReproducer();
    std::vector<uint32_t> spirv = oursSpirv(r, context);
    ASSERT_FALSE(spirv.empty());
    EXPECT_EQ(validateSpirv(spirv.data(), spirv.size() * 4, spirv12), "");
    spirv[1] = 0x00010400; // claims SPIR-V 1.4
    EXPECT_NE(validateSpirv(spirv.data(), spirv.size() * 4, 0x00010000), "");
}

// ---------------------------------------------------------------------------
// A width the legaliser cannot rewrite (an i24 argument of a function; clang
// never emits one for OpenCL C) is a message naming the function, never a
// module handed to the translator.

TEST(LegalizeIntegerWidths, UnrewritableWidthIsAnErrorNamingTheFunction) {
    llvm::LLVMContext context;
    std::string log;
    auto module = legalize_test::parseIR(context, R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
define spir_func i24 @helper(i24 %x) noinline {
  %y = mul i24 %x, 3
  ret i24 %y
}
define spir_kernel void @k(i32 addrspace(1)* %out, i32 %v) {
  %t = trunc i32 %v to i24
  %r = call spir_func i24 @helper(i24 %t)
  %z = zext i24 %r to i32
  store i32 %z, i32 addrspace(1)* %out
  ret void
})",
                                         &log);
    ASSERT_TRUE(module) << log;
    bool retryUnoptimized = false;
    const std::string problem = optimizeAndLegalize(*module, 2, &retryUnoptimized);
    EXPECT_NE(problem.find("helper"), std::string::npos) << problem;
    EXPECT_TRUE(retryUnoptimized) << "optimisation was on: -O0 may do";
    EXPECT_NE(optimizeAndLegalize(*module, 0, &retryUnoptimized), "");
    EXPECT_FALSE(retryUnoptimized) << "nothing is left to retry at -O0";
}

// Inputs translator 15 would end the process on are refused with a message.
TEST(OptimizeAndLegalize, RefusesOpaquePointersAndForeignTargets) {
    {
        llvm::LLVMContext context;
        std::string log;
        auto module = legalize_test::parseIR(context, R"(
target triple = "spir64-unknown-unknown"
define spir_kernel void @k(ptr addrspace(1) %out) {
  store i32 1, ptr addrspace(1) %out
  ret void
})",
                                             &log);
        ASSERT_TRUE(module) << log;
        EXPECT_NE(optimizeAndLegalize(*module, 2).find("opaque pointers"), std::string::npos);
    }
    {
        llvm::LLVMContext context;
        std::string log;
        auto module = legalize_test::parseIR(context, R"(
target triple = "x86_64-unknown-linux-gnu"
define void @k(i32* %out) {
  store i32 1, i32* %out
  ret void
})",
                                             &log);
        ASSERT_TRUE(module) << log;
        EXPECT_NE(optimizeAndLegalize(*module, 2).find("x86_64"), std::string::npos);
    }
}

// A module without a single pointer leaves LLVM's typed/opaque pointer mode
// undecided; the opaque-pointer check must not decide it (the translator needs
// typed pointers afterwards).
TEST(OptimizeAndLegalize, AcceptsAModuleWithoutPointers) {
    llvm::LLVMContext context;
    std::string log;
    auto module = compileOpenCL(context, R"(
__kernel void k(int x) {
  int y = x * 3;
  (void)y;
})",
                                2, /*clangPasses=*/false, &log);
    ASSERT_TRUE(module) << log;
    EXPECT_EQ(optimizeAndLegalize(*module, 2), "");
    std::vector<uint32_t> spirv;
    std::string error;
    ASSERT_TRUE(translate(*module, &spirv, &error)) << error;
    EXPECT_EQ(validateSpirv(spirv.data(), spirv.size() * 4, spirv12), "");
}

} // namespace
