// legalizeIntegerWidths on hand-written IR with the illegal widths the
// optimiser produces (clang never writes them for OpenCL C): arithmetic that
// wraps at 24 bits, signed operations, memory of 3 bytes, byte vectors viewed
// as an i24, a loop-carried i24, an i3 switch and i31 values. The rewritten
// kernels must validate and compute, on the driver, what the IR means.
#include "legalize.hpp"
#include "legalize_passes.hpp"
#include "legalize_test_support.hpp"

#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace {

constexpr const char *illegalWidthKernels = R"(
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

declare spir_func i64 @_Z13get_global_idj(i32)
declare i24 @llvm.smin.i24(i24, i24)

define spir_kernel void @k(i32 addrspace(1)* %in, i32 addrspace(1)* %out, i32 %n) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pin = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %gid
  %x = load i32, i32 addrspace(1)* %pin, align 4
  %a = trunc i32 %x to i24
  %y = ashr i32 %x, 5
  %b = trunc i32 %y to i24
  %s = add i24 %a, %b
  %m = mul i24 %s, 1237
  %sh = ashr i24 %m, 3
  %b11 = and i24 %b, 2047
  %d = or i24 %b11, 1
  %q = sdiv i24 %m, %d
  %r = srem i24 %m, %d
  %lt = icmp slt i24 %m, %b
  %sel = select i1 %lt, i24 %q, i24 %r
  %mn = call i24 @llvm.smin.i24(i24 %sh, i24 %sel)
  %u = udiv i24 %m, %d
  %o0 = sext i24 %m to i32
  %o1 = sext i24 %sh to i32
  %o2 = sext i24 %mn to i32
  %o3 = zext i24 %u to i32
  %base = shl i64 %gid, 2
  %p0 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %base
  store i32 %o0, i32 addrspace(1)* %p0, align 4
  %i1 = or i64 %base, 1
  %p1 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i1
  store i32 %o1, i32 addrspace(1)* %p1, align 4
  %i2 = or i64 %base, 2
  %p2 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i2
  store i32 %o2, i32 addrspace(1)* %p2, align 4
  %i3 = or i64 %base, 3
  %p3 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %i3
  store i32 %o3, i32 addrspace(1)* %p3, align 4
  ret void
}

define spir_kernel void @m(i32 addrspace(1)* %in, i32 addrspace(1)* %out, i32 %n) {
entry:
  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)
  %pin = getelementptr inbounds i32, i32 addrspace(1)* %in, i64 %gid
  %p24 = bitcast i32 addrspace(1)* %pin to i24 addrspace(1)*
  %v = load i24, i24 addrspace(1)* %p24, align 4
  %nn = trunc i32 %n to i24
  br label %loop
loop:
  %acc = phi i24 [ %v, %entry ], [ %next, %loop ]
  %j = phi i24 [ 0, %entry ], [ %j1, %loop ]
  %t = mul i24 %acc, 3
  %next = add i24 %t, %j
  %j1 = add i24 %j, 1
  %done = icmp uge i24 %j1, %nn
  br i1 %done, label %after, label %loop
after:
  %vec = bitcast i24 %next to <3 x i8>
  %rev = shufflevector <3 x i8> %vec, <3 x i8> poison, <3 x i32> <i32 2, i32 1, i32 0>
  %back = bitcast <3 x i8> %rev to i24
  %o = shl i64 %gid, 1
  %po = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %o
  %po24 = bitcast i32 addrspace(1)* %po to i24 addrspace(1)*
  store i24 %back, i24 addrspace(1)* %po24, align 4
  %x = load i32, i32 addrspace(1)* %pin, align 4
  %w = trunc i32 %x to i31
  %wl = lshr i31 %w, 2
  %wd = udiv i31 %wl, 7
  %t3 = trunc i32 %x to i3
  switch i3 %t3, label %other [ i3 0, label %c0
                                i3 3, label %c3
                                i3 -1, label %c7 ]
c0:
  br label %join
c3:
  br label %join
c7:
  br label %join
other:
  br label %join
join:
  %k = phi i31 [ %wd, %c0 ], [ %wl, %c3 ], [ 5, %c7 ], [ %w, %other ]
  %kz = zext i31 %k to i32
  %o1 = or i64 %o, 1
  %po1 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %o1
  store i32 %kz, i32 addrspace(1)* %po1, align 4
  ret void
}
)";

int32_t signExtend24(uint32_t bits) {
    return static_cast<int32_t>(bits << 8) >> 8;
}

// What @k computes for one input, as four outputs.
void hostK(int32_t x, int32_t *out) {
    const uint32_t a = static_cast<uint32_t>(x) & 0xFFFFFF;
    const uint32_t b = static_cast<uint32_t>(x >> 5) & 0xFFFFFF;
    const uint32_t s = (a + b) & 0xFFFFFF;
    const uint32_t m = static_cast<uint32_t>(static_cast<uint64_t>(s) * 1237u) & 0xFFFFFF;
    const int32_t sm = signExtend24(m);
    const int32_t sh = sm >> 3;
    const uint32_t d = (b & 2047u) | 1u;
    const int32_t q = sm / static_cast<int32_t>(d);
    const int32_t r = sm % static_cast<int32_t>(d);
    const int32_t sel = sm < signExtend24(b) ? q : r;
    out[0] = sm;
    out[1] = sh;
    out[2] = std::min(sh, sel);
    out[3] = static_cast<int32_t>(m / d);
}

// What @m computes; out0 starts as `initial` (its top byte survives).
void hostM(int32_t x, int32_t n, int32_t initial, int32_t *out) {
    uint32_t acc = static_cast<uint32_t>(x) & 0xFFFFFF;
    uint32_t j = 0;
    for (;;) {
        acc = (acc * 3 + j) & 0xFFFFFF;
        j = (j + 1) & 0xFFFFFF;
        if (j >= (static_cast<uint32_t>(n) & 0xFFFFFF))
            break;
    }
    const uint32_t reversed = ((acc & 0xFF) << 16) | (acc & 0xFF00) | ((acc >> 16) & 0xFF);
    out[0] = static_cast<int32_t>((static_cast<uint32_t>(initial) & 0xFF000000u) | reversed);
    const uint32_t w = static_cast<uint32_t>(x) & 0x7FFFFFFF;
    const uint32_t wl = w >> 2;
    switch (x & 7) {
    case 0:
        out[1] = static_cast<int32_t>(wl / 7);
        break;
    case 3:
        out[1] = static_cast<int32_t>(wl);
        break;
    case 7:
        out[1] = 5;
        break;
    default:
        out[1] = static_cast<int32_t>(w);
        break;
    }
}

class IllegalWidthKernels : public ::testing::Test {
protected:
    void SetUp() override {
        std::string log;
        module_ = legalize_test::parseIR(context_, illegalWidthKernels, &log);
        ASSERT_TRUE(module_) << log;
    }
    llvm::LLVMContext context_;
    std::unique_ptr<llvm::Module> module_;
};

TEST_F(IllegalWidthKernels, AreRewrittenToLegalWidthsAndValidate) {
    for (llvm::Function &function : *module_) {
        if (function.isDeclaration())
            continue;
        EXPECT_EQ(imex_l0::compiler::legalizeIntegerWidths(function), "")
            << function.getName().str();
        EXPECT_EQ(imex_l0::compiler::findIllegalIntegerType(function), nullptr);
        imex_l0::compiler::DominatorBlockOrderPass::orderBlocks(function);
    }
    imex_l0::compiler::removeUnusedIllegalDeclarations(*module_);
    EXPECT_EQ(module_->getFunction("llvm.smin.i24"), nullptr);
    std::string problems;
    llvm::raw_string_ostream out(problems);
    ASSERT_FALSE(llvm::verifyModule(*module_, &out)) << out.str();
    std::vector<uint32_t> spirv;
    std::string error;
    ASSERT_TRUE(legalize_test::translate(*module_, &spirv, &error)) << error;
    ASSERT_EQ(imex_l0::compiler::validateSpirv(spirv.data(), spirv.size() * 4, 0x00010200), "");

    static legalize_test::Device device;
    if (!device.unavailable().empty())
        GTEST_SKIP() << "not run on a device: " << device.unavailable();
    constexpr uint32_t count = 256;
    std::vector<int32_t> in = legalize_test::testInput(count, 21);
    // Large magnitudes and both signs at every bit position that matters.
    for (uint32_t i = 0; i < count; ++i)
        in[i] = static_cast<int32_t>((static_cast<uint32_t>(in[i]) * 2654435761u) ^ (i << 20));

    std::vector<int32_t> outK =
        device.run(spirv, "k", in, std::vector<int32_t>(4 * count, 0), 0, count, &error);
    ASSERT_EQ(outK.size(), 4 * count) << error;
    for (uint32_t i = 0; i < count; ++i) {
        int32_t expected[4];
        hostK(in[i], expected);
        for (int k = 0; k < 4; ++k)
            ASSERT_EQ(outK[4 * i + k], expected[k]) << "k: x=" << in[i] << " output " << k;
    }

    constexpr int32_t n = 5;
    std::vector<int32_t> outM =
        device.run(spirv, "m", in, std::vector<int32_t>(2 * count, -1), n, count, &error);
    ASSERT_EQ(outM.size(), 2 * count) << error;
    for (uint32_t i = 0; i < count; ++i) {
        int32_t expected[2];
        hostM(in[i], n, -1, expected);
        ASSERT_EQ(outM[2 * i], expected[0]) << "m: x=" << in[i] << " output 0";
        ASSERT_EQ(outM[2 * i + 1], expected[1]) << "m: x=" << in[i] << " output 1";
    }
}

} // namespace
