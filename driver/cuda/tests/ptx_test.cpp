// Every SPIR-V test kernel of the project through the CUDA backend's
// translation, and the PTX through ptxas for sm_90 (the H100/H200 the
// project's GPU runs are on). Machines without the CUDA toolkit translate
// but cannot check the PTX: the test then reports itself skipped.
#include "exact_index_sums.hpp"
#include "index_offsets.hpp"
#include "inline_program.hpp"
#include "libdevice_math.hpp"
#include "ptx_translator.hpp"
#include "pure_calls.hpp"
#include "vector_loads.hpp"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

// LeakSanitizer's interface, in the AddressSanitizer build.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZE_CUDA_TEST_LSAN 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define ZE_CUDA_TEST_LSAN 1
#endif
#ifdef ZE_CUDA_TEST_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::vector<std::string> testSpirvFiles() {
    std::ifstream list(ALL_TEST_SPIRV_LIST);
    std::vector<std::string> files;
    for (std::string line; std::getline(list, line);)
        if (!line.empty())
            files.push_back(line);
    return files;
}

std::vector<uint8_t> readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// ptxas's verdict on the PTX: "" when it assembles for sm_90, else its output.
std::string ptxas(const std::string &ptx, const std::string &name) {
    char dir[] = "/tmp/ze_cuda_ptx_XXXXXX";
    if (!mkdtemp(dir))
        return "cannot make a temporary directory";
    std::string base = std::string(dir) + "/" + name;
    std::ofstream(base + ".ptx") << ptx;
    std::string command = std::string(PTXAS_PATH) + " -arch=sm_90 " + base + ".ptx -o " + base +
                          ".cubin > " + base + ".log 2>&1";
    int status = std::system(command.c_str());
    std::ifstream logFile(base + ".log");
    std::string log{std::istreambuf_iterator<char>(logFile), std::istreambuf_iterator<char>()};
    std::system(("rm -rf " + std::string(dir)).c_str());
    return status == 0 ? "" : "ptxas exit status " + std::to_string(status) + ":\n" + log;
}

TEST(PtxTranslation, EveryTestKernelBecomesPtxThatPtxasAccepts) {
    std::vector<std::string> files = testSpirvFiles();
    ASSERT_GE(files.size(), 10u) << "the list of the project's SPIR-V test kernels is missing: "
                                 << ALL_TEST_SPIRV_LIST;
    const bool haveptxas = *PTXAS_PATH != '\0';
    size_t kernels = 0;
    for (const std::string &file : files) {
        SCOPED_TRACE(file);
        std::vector<uint8_t> spirv = readFile(file);
        ASSERT_FALSE(spirv.empty()) << "missing (not built?)";
        ze_cuda::PtxModule ptx;
        std::string log;
        // LLVM's diagnostics go to the build log: nothing reaches the
        // application's standard error.
        ::testing::internal::CaptureStderr();
        ze_result_t result =
            ze_cuda::translateSpirvToPtx(spirv.data(), spirv.size(), {}, &ptx, &log);
        EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
        if (file.find("unresolved_call.spv") != std::string::npos) {
            // The driver tests' module that calls a function nobody defines.
            EXPECT_EQ(result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
            EXPECT_NE(log.find("not_defined_anywhere"), std::string::npos) << log;
            continue;
        }
        if (file.find("/linked_kernels.spv") != std::string::npos) {
            // Half of a program of two modules (ProgramOfTwoModules below):
            // alone, what it imports is missing.
            EXPECT_EQ(result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
            EXPECT_NE(log.find("scaled"), std::string::npos) << log;
            continue;
        }
        if (file.find("/mipmapped_image.spv") != std::string::npos) {
            // A mipmapped image's read: no image builtin of this backend.
            EXPECT_EQ(result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
            EXPECT_NE(log.find("is an image builtin the CUDA backend does not define"),
                      std::string::npos)
                << log;
            continue;
        }
        EXPECT_EQ(result, ZE_RESULT_SUCCESS) << log;
        if (result != ZE_RESULT_SUCCESS)
            continue;
        for (const auto &kernel : ptx.kernels) {
            EXPECT_NE(ptx.ptx.find(".entry " + kernel.name + "("), std::string::npos)
                << kernel.name << " is no PTX entry point";
            ++kernels;
        }
        if (haveptxas) {
            std::string name = file.substr(file.find_last_of('/') + 1);
            EXPECT_EQ(ptxas(ptx.ptx, name), "");
        }
    }
    std::printf("%zu files, %zu kernels translated to PTX%s\n", files.size(), kernels,
                haveptxas ? ", every module accepted by ptxas -arch=sm_90" : "");
    if (!haveptxas)
        GTEST_SKIP() << "skipped: no ptxas (the CUDA toolkit) on this machine: the " << kernels
                     << " kernels were translated, but their PTX was not checked";
}

// The SPIR-V test kernel whose name ends in `name` (".../native_math.spv").
std::vector<uint8_t> testKernel(const std::string &name) {
    for (const std::string &file : testSpirvFiles())
        if (file.size() >= name.size() &&
            file.compare(file.size() - name.size(), name.size(), name) == 0)
            return readFile(file);
    return {};
}

// The PTX of the SPIR-V test kernel `name`, translated with the default
// options; "" (and a failure) if it is missing or does not translate.
std::string translatedTestKernel(const std::string &name) {
    std::vector<uint8_t> spirv = testKernel(name);
    EXPECT_FALSE(spirv.empty()) << name;
    ze_cuda::PtxModule ptx;
    std::string log;
    EXPECT_EQ(ze_cuda::translateSpirvToPtx(spirv.data(), spirv.size(), {}, &ptx, &log),
              ZE_RESULT_SUCCESS)
        << log;
    return ptx.ptx;
}

// The PTX of one kernel (its .entry up to the next).
std::string entryOf(const std::string &ptx, const std::string &kernel) {
    size_t start = ptx.find(".entry " + kernel + "(");
    EXPECT_NE(start, std::string::npos) << kernel;
    if (start == std::string::npos)
        return "";
    size_t end = ptx.find(".entry ", start + 1);
    return ptx.substr(start, end == std::string::npos ? end : end - start);
}

size_t count(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// A program of two modules (ZE_experimental_module_program): the kernels'
// imports bound to the library's exports, one PTX module ptxas accepts; a
// symbol two modules export fails, by name.
TEST(PtxTranslation, ProgramOfTwoModules) {
    std::vector<uint8_t> kernels = testKernel("/linked_kernels.spv");
    std::vector<uint8_t> library = testKernel("/linked_library.spv");
    ASSERT_FALSE(kernels.empty());
    ASSERT_FALSE(library.empty());
    ze_cuda::PtxModule ptx;
    std::string log;
    ASSERT_EQ(ze_cuda::translateSpirvToPtx({{kernels.data(), kernels.size(), {}},
                                            {library.data(), library.size(), {}}},
                                           &ptx, &log),
              ZE_RESULT_SUCCESS)
        << log;
    ASSERT_EQ(ptx.kernels.size(), 2u);
    EXPECT_NE(ptx.ptx.find(".entry apply_scaled("), std::string::npos) << ptx.ptx;
    EXPECT_NE(ptx.ptx.find(".entry read_bias("), std::string::npos) << ptx.ptx;
    // The variable is defined once, visible (zeModuleGetGlobalPointer finds it).
    EXPECT_NE(ptx.ptx.find(".visible .global .align 4 .u32 bias"), std::string::npos) << ptx.ptx;
    if (*PTXAS_PATH != '\0')
        EXPECT_EQ(ptxas(ptx.ptx, "program"), "");

    ze_cuda::PtxModule twice;
    std::string twiceLog;
    EXPECT_EQ(ze_cuda::translateSpirvToPtx({{kernels.data(), kernels.size(), {}},
                                            {library.data(), library.size(), {}},
                                            {library.data(), library.size(), {}}},
                                           &twice, &twiceLog),
              ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_NE(twiceLog.find("SPIR-V module 3"), std::string::npos) << twiceLog;
    EXPECT_TRUE(twiceLog.find("'scaled'") != std::string::npos ||
                twiceLog.find("'bias'") != std::string::npos)
        << twiceLog;
}

// native_* and half_* on the GPU's approximate instructions (libclc-15's
// definitions end the process in LLVM 15's NVPTX backend), and no call left
// to a math library the GPU does not have.
TEST(PtxTranslation, NativeMathUsesTheApproximateInstructions) {
    const std::string ptx = translatedTestKernel("/native_math.spv");
    for (const char *instruction :
         {"ex2.approx.f32", "lg2.approx.f32", "sin.approx.f32", "cos.approx.f32", "sqrt.approx.f32",
          "rsqrt.approx.f32", "div.approx.f32"})
        EXPECT_NE(ptx.find(instruction), std::string::npos) << instruction;
    EXPECT_EQ(ptx.find("call"), std::string::npos) << "a call is left in the PTX";
}

// libdevice's roundings to the nearest integer (expm1's, sinpi's, tgamma's,
// pow's reductions) are PTX's cvt.rni, ties to even, as libdevice means
// them, not LLVM 15's reading of them as ties away from zero: ten
// instructions of sign, half, truncation and selects each
// (libdevice_math.cpp, roundTiesToEven).
TEST(PtxTranslation, LibdevicesRoundingsAreOneInstruction) {
    if (ze_cuda::libdevicePath().empty())
        GTEST_SKIP() << "skipped: no libdevice (the CUDA toolkit) on this machine";
    const std::string ptx = translatedTestKernel("/precise_math.spv");
    const std::string floats = entryOf(ptx, "precise_float");
    EXPECT_GT(count(floats, "cvt.rni.f32.f32"), 0u) << floats;
    EXPECT_EQ(count(floats, ", 1056964608;"), 0u) << "one half with x's sign: a rounding away\n"
                                                  << floats;
    const std::string doubles = entryOf(ptx, "precise_double");
    EXPECT_GT(count(doubles, "cvt.rni.f64.f64"), 0u) << doubles;
}

// Integer clamp is a max and a min (missing_builtins.hpp), as NVIDIA's OpenCL
// makes it, not libclc's compare, max and select.
TEST(PtxTranslation, IntegerClampIsAMaxAndAMin) {
    const std::string entry = entryOf(translatedTestKernel("/cuda_builtins.spv"), "clamp_integers");
    for (const char *instruction : {"max.s32", "min.s32", "max.u32", "min.u32"})
        EXPECT_NE(entry.find(instruction), std::string::npos) << instruction << "\n" << entry;
    EXPECT_EQ(entry.find("selp"), std::string::npos) << entry;
}

// What libclc-15 lacks (missing_builtins.hpp) becomes the GPU's own
// instructions: 64-bit atomics on global and local memory, mul.hi for
// mad_hi, the address space tests and conversions; the builtins taking a
// generic pointer are libclc's private ones; nothing is left to call.
TEST(PtxTranslation, BuiltinsLibclcLacksAreTheGpusInstructions) {
    const std::string ptx = translatedTestKernel("/missing_builtins.spv");
    const std::string atomics = entryOf(ptx, "long_atomics");
    for (const char *instruction :
         {"atom.global.add.u64", "atom.global.min.s64", "atom.global.max.s64",
          "atom.global.xor.b64", "atom.shared.add.u64", "atom.global.add.f32",
          "atom.global.add.f64"})
        EXPECT_NE(atomics.find(instruction), std::string::npos) << instruction << "\n" << atomics;
    const std::string integers = entryOf(ptx, "integer_extras");
    for (const char *instruction : {"mul.hi.s32", "mul.hi.u32", "mul.hi.s64", "mul.hi.u64"})
        EXPECT_NE(integers.find(instruction), std::string::npos) << instruction << "\n" << integers;
    const std::string spaces = entryOf(ptx, "address_spaces");
    for (const char *instruction : {"isspacep.global", "isspacep.shared", "isspacep.local",
                                    "cvta.to.global", "cvta.to.shared"})
        EXPECT_NE(spaces.find(instruction), std::string::npos) << instruction << "\n" << spaces;
    EXPECT_NE(entryOf(ptx, "async_copy").find("bar.sync"), std::string::npos);
    EXPECT_EQ(ptx.find(".extern .func"), std::string::npos) << "a call is left in the PTX";
}

// A gather of three of a float4's elements, and of two int4 elements that
// are not an aligned pair, loads each vector whole (vector_loads.hpp), as
// NVIDIA's OpenCL does, rather than as a pair and a single element.
TEST(PtxTranslation, PartlyUsedVectorsAreLoadedWhole) {
    const std::string ptx = translatedTestKernel("/vector_loads.spv");
    const std::string xyz = entryOf(ptx, "gather_xyz");
    EXPECT_EQ(count(xyz, "ld.global.v4.f32"), 2u) << xyz; // position[i], position[neighbour[i]]
    EXPECT_EQ(count(xyz, "ld.global.v2.f32"), 0u) << xyz;
    EXPECT_EQ(count(xyz, "ld.global.f32"), 0u) << xyz;
    const std::string xz = entryOf(ptx, "gather_xz");
    EXPECT_EQ(count(xz, "ld.global.v4.u32"), 1u) << xz;
    EXPECT_EQ(count(xz, "ld.global.u32"), 1u) << xz; // index[i] only
}

// The module of `ir` (LLVM assembly); NULL, and a failure naming the error,
// when it does not parse.
std::unique_ptr<llvm::Module> parsed(llvm::LLVMContext &context, const std::string &ir) {
    llvm::SMDiagnostic error;
    std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(ir, error, context);
    if (!module)
        ADD_FAILURE() << error.getMessage().str();
    return module;
}

std::string printed(const llvm::Module &module) {
    std::string out;
    llvm::raw_string_ostream os(out);
    module.print(os, nullptr);
    return os.str();
}

// The module of `ir` (LLVM assembly) after the function pass Pass ran on its
// first function, as text; "" (and a failure) when the text does not parse.
template <class Pass> std::string afterPass(const char *ir) {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = parsed(context, ir);
    if (!module)
        return "";
    llvm::FunctionAnalysisManager analyses;
    llvm::PassBuilder().registerFunctionAnalyses(analyses);
    Pass().run(*module->begin(), analyses);
    return printed(*module);
}

std::string withVectorLoads(const char *ir) {
    return afterPass<ze_cuda::VectorLoadPass>(ir);
}

// A loop counting to a bound known when it starts is unrolled four times
// (four copies of its body and one in the remainder loop: 0.75 is the
// body's constant), also where it calls floor (0.875), twice where its body
// is over 60 instructions (0.8125); a loop that leaves on a condition of its
// data is not (4.0 is its test's constant), as NVIDIA's OpenCL leaves it.
TEST(PtxTranslation, CountedLoopsAreUnrolledDataExitsAreNot) {
    const std::string ptx = translatedTestKernel("/unrolling.spv");
    EXPECT_EQ(count(entryOf(ptx, "counted"), "0f3F400000"), 5u) << ptx;
    EXPECT_EQ(count(entryOf(ptx, "counted_floor"), "0f3F600000"), 5u) << ptx;
    EXPECT_EQ(count(entryOf(ptx, "data_exit"), "0f40800000"), 1u) << ptx;
    EXPECT_EQ(count(entryOf(ptx, "counted_large"), "0f3F500000"), 3u) << ptx;
}

// A loop of a constant trip count: 64 iterations of four multiply-adds are
// unrolled eight times (eight copies of 0.625, no remainder); 16 iterations
// of 20 multiply-adds are left to LLVM, which does not unroll them whole
// (fewer than 16 x 5 copies of 0.375).
TEST(PtxTranslation, ConstantTripCountsAreUnrolledAsNvidiaDoes) {
    const std::string ptx = translatedTestKernel("/unrolling.spv");
    EXPECT_EQ(count(entryOf(ptx, "constant_trips_64"), "0f3F200000"), 8u) << ptx;
    EXPECT_LT(count(entryOf(ptx, "constant_trips_16"), "0f3EC00000"), 80u) << ptx;
}

// The loops of a kernel's PTX, each from its label to the branch back to it.
std::vector<std::string> loopBodies(const std::string &entry) {
    std::vector<std::string> bodies;
    for (size_t at = entry.find(" bra"); at != std::string::npos; at = entry.find(" bra", at + 1)) {
        const size_t label = entry.find("$L__", at);
        const size_t end = entry.find(';', label);
        if (label == std::string::npos || end == std::string::npos)
            break;
        const size_t defined = entry.find("\n" + entry.substr(label, end - label) + ":");
        if (defined != std::string::npos && defined < at)
            bodies.push_back(entry.substr(defined, at - defined));
    }
    return bodies;
}

size_t loops(const std::string &entry) {
    return loopBodies(entry).size();
}

// A loop adding into tmp[i] and y[i] every iteration through pointers that
// may alias the others becomes two loops, chosen by the pointers' ranges
// (loop_versioning.hpp): one as written, one with the sums in registers and
// no store; a loop whose store is conditional stays one version, without a
// range check.
TEST(PtxTranslation, LoopsUpdatingOneAddressKeepItInARegister) {
    const std::string ptx = translatedTestKernel("/loop_versioning.spv");
    const std::string rowSums = entryOf(ptx, "row_sums");
    const std::vector<std::string> sums = loopBodies(rowSums);
    ASSERT_EQ(sums.size(), 2u) << rowSums;
    const size_t storing = count(sums[0], "st.global") > 0 ? 0 : 1;
    EXPECT_EQ(count(sums[storing], "st.global.f32"), 2u) << sums[storing];
    EXPECT_EQ(count(sums[1 - storing], "st.global"), 0u) << sums[1 - storing];
    EXPECT_EQ(count(sums[1 - storing], "fma.rn.f32"), 2u) << sums[1 - storing];
    // The range checks compare addresses (12 for row_sums' five pointers).
    EXPECT_GT(count(rowSums, "setp.lt.u64"), 0u) << rowSums;
    const std::string match = entryOf(ptx, "last_match");
    EXPECT_EQ(count(match, "setp.lt.u64"), 0u) << match;
}

// A loop loading global memory and adding into one element of local memory
// every trip, and one loading local memory and adding into one global
// element, keep the element in a register and store it once after the loop
// (state_space_aa.hpp): LLVM 15 alone took the loads for possible readers
// of the stored element and stored on every trip.
TEST(PtxTranslation, StoresToOneStateSpaceLeaveLoopsReadingAnother) {
    const std::string ptx = translatedTestKernel("/state_spaces.spv");
    const std::string sums = entryOf(ptx, "grid_stride_sums");
    const std::vector<std::string> sumLoops = loopBodies(sums);
    ASSERT_FALSE(sumLoops.empty()) << sums;
    const std::string &strided = sumLoops.front(); // the grid-stride loop comes first
    EXPECT_GT(count(strided, "ld.global"), 0u) << strided;
    EXPECT_EQ(count(strided, "st.shared"), 0u) << strided;
    const std::string weighted = entryOf(ptx, "tile_weighted");
    const std::vector<std::string> weightedLoops = loopBodies(weighted);
    ASSERT_FALSE(weightedLoops.empty()) << weighted;
    for (const std::string &loop : weightedLoops) {
        EXPECT_GT(count(loop, "ld.shared"), 0u) << loop;
        EXPECT_EQ(count(loop, "st.global"), 0u) << loop;
    }
}

// The launch values (launch_values.hpp) are the kernel's own parameters
// where the builtins reading them are inlined: no shared-memory load of
// them after a barrier (launch_value_builtins.hpp); a function that stays a
// call reads them from the __local variables its kernel's entry stored.
// The group ids of dimensions 1 and 2 add the part's first group to ctaid.
TEST(PtxTranslation, LaunchValuesAreTheKernelsParameters) {
    // The lines of `text` that access a variable of the translation's own
    // (not the dynamic shared memory) with `instruction`.
    auto accesses = [](const std::string &text, const std::string &instruction) {
        size_t n = 0;
        for (size_t at = 0; at < text.size();) {
            size_t end = text.find('\n', at);
            end = end == std::string::npos ? text.size() : end;
            const std::string line = text.substr(at, end - at);
            n += line.find(instruction) != std::string::npos &&
                 line.find("[__ze_cuda_") != std::string::npos &&
                 line.find("__ze_cuda_dynamic_shared") == std::string::npos;
            at = end + 1;
        }
        return n;
    };
    const std::string ptx = translatedTestKernel("/launch_values.spv");
    const std::string ids = entryOf(ptx, "ids_after_barrier");
    EXPECT_EQ(accesses(ids, "ld.shared"), 0u) << ids;
    EXPECT_GT(count(ids, "%ctaid.y"), 0u) << ids;
    const std::string groups = entryOf(ptx, "record_groups");
    EXPECT_EQ(accesses(groups, "ld.shared"), 0u) << groups;
    EXPECT_GT(accesses(groups, "st.shared"), 0u) << groups;
    const size_t helper = ptx.find(".func");
    ASSERT_NE(helper, std::string::npos) << ptx;
    const std::string called = ptx.substr(helper, ptx.find(".entry") - helper);
    EXPECT_GT(accesses(called, "ld.shared"), 0u) << called;
    EXPECT_GT(count(called, "%ctaid.y"), 0u) << called;
}

// A short search through memory, a counted exit and an exit on the value
// it loads, is unrolled four times (unroll_hints.hpp): four loads of the
// table where the rolled loop has one, beside the load of the value searched
// for.
TEST(PtxTranslation, ShortSearchesAreUnrolledFourTimes) {
    const std::string ptx = translatedTestKernel("/unrolling.spv");
    const std::string back = entryOf(ptx, "search_back");
    EXPECT_EQ(count(back, "ld.global.u32"), 1u + 4) << back;
    const std::string forward = entryOf(ptx, "search_forward");
    EXPECT_EQ(count(forward, "ld.global.f32"), 1u + 4) << forward;
}

// Comparisons LICM moved out of a loop stay out of it
// (condition_registers.hpp): the loop of bounded_steps tests its exit and
// its trip's two bounds, three comparisons; the work-group's two bounds are
// compared before it (LLVM's code generator alone copied them into the
// loop, five comparisons a trip).
TEST(PtxTranslation, ComparisonsBeforeALoopStayThere) {
    const std::string ptx = translatedTestKernel("/comparisons.spv");
    const std::string entry = entryOf(ptx, "bounded_steps");
    const std::vector<std::string> bodies = loopBodies(entry);
    ASSERT_FALSE(bodies.empty()) << entry;
    // Branches back to the loop's head from inside it give parts of the
    // body too: the longest is the whole loop.
    const std::string loop = *std::max_element(
        bodies.begin(), bodies.end(),
        [](const std::string &a, const std::string &b) { return a.size() < b.size(); });
    EXPECT_EQ(count(loop, "setp."), 3u) << loop;
}

// A loop testing the kernel's argument, the same for every work-item,
// becomes two loops, one for each outcome (uniform_unswitch.hpp); the same
// loop testing the work-item's id stays one loop.
TEST(PtxTranslation, LoopsAreUnswitchedOnUniformConditionsOnly) {
    const std::string ptx = translatedTestKernel("/unswitching.spv");
    EXPECT_EQ(loops(entryOf(ptx, "collatz_uniform_rule")), 2u) << ptx;
    EXPECT_EQ(loops(entryOf(ptx, "collatz_item_rule")), 1u) << ptx;
}

// Loops LLVM unrolls whole are left to it (unroll_hints.hpp): eight loops
// of 64 dependent multiply-adds become one block of 512 (and the four of the
// sum), no loop left.
TEST(PtxTranslation, LoopsLlvmUnrollsWholeAreNotUnrolledEightTimes) {
    const std::string entry =
        entryOf(translatedTestKernel("/unrolling.spv"), "dependent_chains_64");
    EXPECT_EQ(count(entry, "fma.rn.f32"), 8u * 64 + 4) << entry;
    EXPECT_EQ(loops(entry), 0u) << entry;
}

// Chains of short and char arithmetic are computed in 32-bit registers
// (wide_integers.hpp): each multiply-add one mad.lo.s32 (one SASS IMAD), no
// 16-bit multiply left; a right shift, a division and a comparison still see
// the narrow value.
TEST(PtxTranslation, NarrowIntegerChainsAreComputedIn32Bits) {
    const std::string ptx = translatedTestKernel("/narrow_integers.spv");
    for (const auto &[kernel, multiplyAdds] :
         {std::pair<const char *, size_t>{"short8_chain", 8 * 16},
          {"uchar16_chain", 16 * 16},
          {"char_to_int", 16}}) {
        SCOPED_TRACE(kernel);
        const std::string entry = entryOf(ptx, kernel);
        EXPECT_EQ(count(entry, "mad.lo.s32"), multiplyAdds) << entry;
        EXPECT_EQ(count(entry, "mul.lo.s16"), 0u) << entry;
    }
    EXPECT_NE(entryOf(ptx, "short8_chain").find("shr.s16"), std::string::npos);
    EXPECT_NE(entryOf(ptx, "char_to_int").find("cvt.s32.s8"), std::string::npos);
}

// Loop counters mixed into data and masked (lsr_fences.hpp): no 16-bit
// registers, and no induction variable per term (fewer adds than the
// chains' multiply-adds; loop strength reduction made 16 and 51 of them).
TEST(PtxTranslation, LoopCountersInDataAreLeftToTheLoop) {
    const std::string ptx = translatedTestKernel("/loop_recurrences.spv");
    for (const char *kernel : {"masked_mad24", "mixed_chain", "masked_counter"}) {
        SCOPED_TRACE(kernel);
        const std::string entry = entryOf(ptx, kernel);
        ASSERT_FALSE(entry.empty());
        EXPECT_EQ(count(entry, ".s16"), 0u) << entry;
        EXPECT_EQ(count(entry, ".u16"), 0u) << entry;
        if (std::string(kernel) != "masked_counter")
            EXPECT_LT(count(entry, "add.s32"), count(entry, "mad.lo.s32")) << entry;
    }
}

// The rewrite on IR: elements read on both sides of a store are not joined
// (the later read may see the store), a group without its first element is
// left alone (the vector's alignment is unknown), and elements of a vector
// whose load-store vectorizer pair suffices are left to it.
TEST(PtxTranslation, VectorLoadsKeepTheOrderOfStores) {
    const char *ir = R"(
        define void @f(ptr addrspace(1) %v, i64 %i, ptr addrspace(1) %out) {
          %a0 = getelementptr inbounds <4 x float>, ptr addrspace(1) %v, i64 %i
          %x = load float, ptr addrspace(1) %a0, align 16
          %a2 = getelementptr inbounds <4 x float>, ptr addrspace(1) %v, i64 %i, i64 2
          %z = load float, ptr addrspace(1) %a2, align 8
          store float %x, ptr addrspace(1) %out, align 4
          %a1 = getelementptr inbounds <4 x float>, ptr addrspace(1) %v, i64 %i, i64 1
          %y = load float, ptr addrspace(1) %a1, align 4
          %s = fadd float %y, %z
          store float %s, ptr addrspace(1) %out, align 4
          %b1 = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %i, i64 1
          %p = load float, ptr addrspace(1) %b1, align 4
          %b2 = getelementptr inbounds <4 x float>, ptr addrspace(1) %out, i64 %i, i64 3
          %q = load float, ptr addrspace(1) %b2, align 4
          %c0 = getelementptr inbounds <4 x float>, ptr addrspace(1) %v, i64 7
          %m = load float, ptr addrspace(1) %c0, align 16
          %c1 = getelementptr inbounds <4 x float>, ptr addrspace(1) %v, i64 7, i64 1
          %n = load float, ptr addrspace(1) %c1, align 4
          %t = fadd float %p, %q
          %u = fadd float %m, %n
          %w = fadd float %t, %u
          store float %w, ptr addrspace(1) %out, align 4
          ret void
        })";
    const std::string out = withVectorLoads(ir);
    ASSERT_FALSE(out.empty());
    // x and z before the store: one vector load; y after it stays a load.
    EXPECT_EQ(out.find("load <4 x float>"), out.rfind("load <4 x float>")) << out;
    EXPECT_NE(out.find("load <4 x float>, ptr addrspace(1) %"), std::string::npos) << out;
    EXPECT_NE(out.find("%y = load float"), std::string::npos) << out;
    EXPECT_EQ(out.find("%x = load float"), std::string::npos) << out;
    EXPECT_EQ(out.find("%z = load float"), std::string::npos) << out;
    // Elements 1 and 3 without element 0, and the pair 0 and 1: untouched.
    for (const char *kept :
         {"%p = load float", "%q = load float", "%m = load float", "%n = load float"})
        EXPECT_NE(out.find(kept), std::string::npos) << kept << "\n" << out;
}

// A function that touches no memory and branches (an exp with a path for
// large arguments), for the call merging's tests (pure_calls.hpp).
const char *const kBranchingMath = R"(
    target triple = "nvptx64-nvidia-cuda"
    define internal double @exp_like(double %x) readnone nounwind {
      %big = fcmp ogt double %x, 7.0e2
      br i1 %big, label %inf, label %small
    inf:
      ret double 0x7FF0000000000000
    small:
      %y = fmul double %x, 1.4426950408889634
      ret double %y
    })";

// Equal calls of exp_like become one before it is inlined: the helper
// writing through a pointer is inlined twice, once on x and once on -x, whose
// squares InstCombine makes the same; the exp of each is then one call. A
// function that does not branch, and one of an integer result, are left to
// -O3.
TEST(PtxTranslation, EqualCallsOfBranchingMathAreMergedBeforeInlining) {
    const std::string ir = std::string(kBranchingMath) + R"(
        define internal double @straight(double %x) readnone nounwind {
          %y = fmul double %x, 3.0
          ret double %y
        }
        define internal i32 @index_like(i32 %d) readnone nounwind {
          %zero = icmp eq i32 %d, 0
          br i1 %zero, label %a, label %b
        a:
          ret i32 1
        b:
          ret i32 2
        }
        define internal void @tail(double %x, ptr %out) nounwind {
          %sq = fmul double %x, %x
          %e = call double @exp_like(double %sq)
          %s = call double @straight(double %sq)
          %r = fadd double %e, %s
          store double %r, ptr %out
          ret void
        }
        define ptx_kernel void @k(ptr addrspace(1) %io, i32 %d) {
          %v = alloca double
          %x = load double, ptr addrspace(1) %io
          call void @tail(double %x, ptr %v)
          %a = load double, ptr %v
          %i = call i32 @index_like(i32 %d)
          store double %a, ptr addrspace(1) %io
          %nx = fneg double %x
          call void @tail(double %nx, ptr %v)
          %b = load double, ptr %v
          %j = call i32 @index_like(i32 %d)
          %ij = add i32 %i, %j
          %p = getelementptr double, ptr addrspace(1) %io, i32 %ij
          store double %b, ptr addrspace(1) %p
          ret void
        })";
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = parsed(context, ir);
    ASSERT_TRUE(module);
    ze_cuda::mergePureCalls(*module);
    const std::string out = printed(*module);
    const llvm::Function *kernel = module->getFunction("k");
    ASSERT_NE(kernel, nullptr) << out;
    auto callsOf = [&](const char *name) {
        size_t n = 0;
        for (const llvm::BasicBlock &block : *kernel)
            for (const llvm::Instruction &i : block)
                if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
                    n += call->getCalledFunction() && call->getCalledFunction()->getName() == name;
        return n;
    };
    EXPECT_EQ(callsOf("tail"), 0u) << out;
    EXPECT_EQ(callsOf("exp_like"), 1u) << out;
    EXPECT_EQ(callsOf("straight"), 0u) << out;   // inlined: GVN merges straight code
    EXPECT_EQ(callsOf("index_like"), 0u) << out; // inlined: an integer result
    // Kept callable by -O3's inliner afterwards.
    EXPECT_FALSE(module->getFunction("exp_like")->hasFnAttribute(llvm::Attribute::NoInline));
}

// A module where no function, its helpers inlined, calls one branching math
// function twice has nothing to merge and is left as it was (its helper
// `put` not inlined yet), not run through the merging's inlining and
// simplification (a kernel of one sin and one cos ran slower so, its PTX
// reordered).
TEST(PtxTranslation, ModulesWithoutRepeatedMathCallsAreLeftAsTheyAre) {
    const std::string ir = std::string(kBranchingMath) + R"(
        define internal void @put(ptr addrspace(1) %p, double %v) nounwind {
          store double %v, ptr addrspace(1) %p
          ret void
        }
        define ptx_kernel void @k(ptr addrspace(1) %io) {
          %x = load double, ptr addrspace(1) %io
          %e = call double @exp_like(double %x)
          call void @put(ptr addrspace(1) %io, double %e)
          ret void
        })";
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = parsed(context, ir);
    ASSERT_TRUE(module);
    const std::string before = printed(*module);
    ze_cuda::mergePureCalls(*module);
    EXPECT_EQ(printed(*module), before);
}

// The program's own functions are inlined into every kernel that calls them
// (inline_program.hpp): a helper LLVM's weighing kept as a call from two
// kernels, with the kernels' private coefficients in a stack frame, is no
// call and no stack in either kernel.
TEST(PtxTranslation, ProgramFunctionsAreInlinedIntoEveryKernel) {
    const std::string ptx = translatedTestKernel("/inlining.spv");
    EXPECT_EQ(count(ptx, ".func"), 0u) << ptx;
    EXPECT_EQ(count(ptx, "call"), 0u) << ptx;
    EXPECT_EQ(count(ptx, "__local_depot"), 0u) << ptx;
    for (const char *kernel : {"mix_forward", "mix_inverse"})
        EXPECT_GT(count(entryOf(ptx, kernel), "xor.b"), 64u) << kernel; // 16 products a row
}

// What is marked: the program's functions, not the builtins linked after
// them, not those the program marked noinline, not those that recurse.
TEST(PtxTranslation, OnlyTheProgramsOwnFunctionsAreMarkedToInline) {
    const char *ir = R"(
        define internal i32 @helper(i32 %x) { ret i32 %x }
        define internal i32 @kept(i32 %x) noinline { ret i32 %x }
        define internal i32 @even(i32 %x) {
          %n = call i32 @odd(i32 %x)
          ret i32 %n
        }
        define internal i32 @odd(i32 %x) {
          %n = call i32 @even(i32 %x)
          ret i32 %n
        }
        define internal i32 @builtin(i32 %x) { ret i32 %x }
        define ptx_kernel void @k(ptr addrspace(1) %io) {
          %x = load i32, ptr addrspace(1) %io
          %a = call i32 @helper(i32 %x)
          %b = call i32 @kept(i32 %a)
          %c = call i32 @even(i32 %b)
          %d = call i32 @builtin(i32 %c)
          store i32 %d, ptr addrspace(1) %io
          ret void
        })";
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = parsed(context, ir);
    ASSERT_TRUE(module);
    std::set<std::string> program = ze_cuda::programFunctions(*module);
    EXPECT_EQ(program, (std::set<std::string>{"builtin", "even", "helper", "kept", "odd"}));
    program.erase("builtin"); // as if linked after the program was read
    ze_cuda::inlineProgramFunctions(*module, program);
    auto marked = [&](const char *name) {
        return module->getFunction(name)->hasFnAttribute(llvm::Attribute::AlwaysInline);
    };
    EXPECT_TRUE(marked("helper"));
    EXPECT_FALSE(marked("kept"));
    EXPECT_FALSE(marked("even"));
    EXPECT_FALSE(marked("odd"));
    EXPECT_FALSE(marked("builtin"));
    EXPECT_FALSE(marked("k"));
}

// A kernel's own __local variables over the 48 KiB ptxas accepts go to the
// dynamic shared memory, before the __local arguments, and the module says
// how many bytes (shared_variables.hpp); those within it stay static.
TEST(PtxTranslation, LocalVariablesOverPtxasLimitMoveToDynamicSharedMemory) {
    const std::string ptx = translatedTestKernel("/large_local.spv");
    const std::string moved = entryOf(ptx, "reverse_through_64k_own");
    EXPECT_EQ(count(moved, ".shared .align"), 0u) << moved;
    EXPECT_EQ(count(moved, ", 65536;"), 1u) << moved; // the argument's offset, after them
    EXPECT_EQ(count(ptx, ".global .align 4 .u32 " +
                             ze_cuda::sharedVariablesName("reverse_through_64k_own") + " = 65536;"),
              1u)
        << ptx;
    const std::string kept = entryOf(ptx, "reverse_through_32k_own");
    EXPECT_EQ(count(kept, ".shared .align 4 .b8 reverse_through_32k_own_$_own[32768];"), 1u)
        << kept;
    EXPECT_EQ(count(ptx, ze_cuda::sharedVariablesName("reverse_through_32k_own")), 0u);
    EXPECT_EQ(count(ptx, ze_cuda::sharedVariablesName("reverse_through_local")), 0u);
    // 44 KiB of its own and the work-group functions' scratch, which another
    // kernel shares: the own array moves, the scratch stays.
    const std::string summed = entryOf(ptx, "reverse_and_sum");
    EXPECT_EQ(count(summed, "reverse_and_sum_$_own"), 0u) << summed;
    EXPECT_EQ(count(ptx, ".global .align 4 .u32 " +
                             ze_cuda::sharedVariablesName("reverse_and_sum") + " = 45056;"),
              1u)
        << ptx;
    EXPECT_EQ(count(ptx, ze_cuda::sharedVariablesName("group_sum")), 0u);
}

// Indices of one sum but for a constant share one address
// (index_offsets.hpp): in Parboil's stencil indexing, in[x + 1] and in[x - 1]
// are read at +4 and -4 from one register in every copy of the unrolled
// loop, where each was computed apart (the -4 never appeared), and fewer
// addresses are made (mul.wide).
TEST(PtxTranslation, IndicesThatDifferByAConstantShareOneAddress) {
    const std::string entry = entryOf(translatedTestKernel("/index_offsets.spv"), "column_stencil");
    EXPECT_GE(count(entry, "+-4]"), 4u) << entry;
    EXPECT_EQ(count(entry, "+4]"), count(entry, "+-4]")) << entry;
    EXPECT_LE(count(entry, "mul.wide.s32"), 17u) << entry;
}

// What the sharing rewrites: in one block, sign extensions of no-wrap sums of
// the same terms used as addresses; not a sum that may wrap, not one whose
// poison would be no undefined behaviour (a value stored, not an address),
// not sums in two blocks.
TEST(PtxTranslation, OnlyNoWrapAddressSumsOfOneBlockShareTheirExtension) {
    const char *ir = R"(
        define ptx_kernel void @k(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %i, i32 %m) {
          %x = add nsw i32 %i, %m
          %x.ext = sext i32 %x to i64
          %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %x.ext
          %va = load float, ptr addrspace(1) %pa
          %ip = add nsw i32 %i, 1
          %y = add nsw i32 %ip, %m
          %y.ext = sext i32 %y to i64
          %pb = getelementptr inbounds float, ptr addrspace(1) %a, i64 %y.ext
          %vb = load float, ptr addrspace(1) %pb
          %z = add i32 %x, 2
          %z.ext = sext i32 %z to i64
          %pz = getelementptr inbounds float, ptr addrspace(1) %a, i64 %z.ext
          %vz = load float, ptr addrspace(1) %pz
          %w = add nsw i32 %x, 3
          %w.ext = sext i32 %w to i64
          store i64 %w.ext, ptr addrspace(1) %out
          %s = fadd float %va, %vb
          %t = fadd float %s, %vz
          store float %t, ptr addrspace(1) %a
          br label %next
        next:
          %u = add nsw i32 %x, 5
          %u.ext = sext i32 %u to i64
          %pu = getelementptr inbounds float, ptr addrspace(1) %a, i64 %u.ext
          store float %t, ptr addrspace(1) %pu
          ret void
        })";
    const std::string out = afterPass<ze_cuda::IndexOffsetsPass>(ir);
    ASSERT_FALSE(out.empty());
    // %y's extension is %x's plus one; %z (may wrap), %w (not an address)
    // and %u (another block) keep their own.
    EXPECT_EQ(out.find("%y.ext = sext"), std::string::npos) << out;
    EXPECT_NE(out.find("add nsw i64 %x.ext, 1"), std::string::npos) << out;
    for (const char *kept : {"%z.ext = sext", "%w.ext = sext", "%u.ext = sext"})
        EXPECT_NE(out.find(kept), std::string::npos) << kept << "\n" << out;
}

// A window's index sums become 64-bit sums of their terms, the counter a
// 64-bit counter (exact_index_sums.hpp): the inner loop reads its pixels at
// constant offsets from one address that steps (four copies of the
// unrolled loop at -32, -16, 0 and +16 bytes), none computed from the base
// (mul.wide.s32 in the loop: one a load before).
TEST(PtxTranslation, WindowIndexSumsStepOneAddress) {
    const std::string entry =
        entryOf(translatedTestKernel("/exact_index_sums.spv"), "weighted_window");
    const std::vector<std::string> bodies = loopBodies(entry);
    ASSERT_FALSE(bodies.empty()) << entry;
    for (const std::string &body : bodies)
        EXPECT_EQ(count(body, "mul.wide.s32"), 0u) << body;
    for (const char *offset : {"+-32]", "+-16]", "+16]"})
        EXPECT_EQ(count(entry, offset), 1u) << offset << "\n" << entry;
}

// What the widening rewrites: in a loop, the sign extension of a no-wrap sum
// of three terms or more, each the same every trip or the loop's counter,
// used as an address whose poison would be undefined behaviour; not a sum
// of two terms, not one with a term that changes otherwise (a load), not
// one only stored (no undefined behaviour), not one outside the loop (none
// of them the counter's, see the next test). The counter's own extension
// becomes its 64-bit twin.
TEST(PtxTranslation, OnlyExactSumsOfInvariantsAndACounterAreWidened) {
    const char *ir = R"(
        define ptx_kernel void @k(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %x, i32 %y,
                                  i32 %n) {
        entry:
          %outside = add nsw i32 %x, %y
          %outside.sum = add nsw i32 %outside, %n
          %outside.ext = sext i32 %outside.sum to i64
          %po = getelementptr inbounds float, ptr addrspace(1) %a, i64 %outside.ext
          %vo = load float, ptr addrspace(1) %po
          br label %loop
        loop:
          %u = phi i32 [ -3, %entry ], [ %u.next, %loop ]
          %acc = phi float [ %vo, %entry ], [ %acc.next, %loop ]
          %xu = add nsw i32 %x, %u
          %xuy = add nsw i32 %xu, %y
          %win = add nsw i32 %xuy, %n
          %win.ext = sext i32 %win to i64
          %pw = getelementptr inbounds float, ptr addrspace(1) %a, i64 %win.ext
          %vw = load float, ptr addrspace(1) %pw
          %two = add nsw i32 %x, %y
          %two.ext = sext i32 %two to i64
          %pt = getelementptr inbounds float, ptr addrspace(1) %a, i64 %two.ext
          %vt = load float, ptr addrspace(1) %pt
          %loaded = load i32, ptr addrspace(1) %out
          %xl = add nsw i32 %x, %loaded
          %xly = add nsw i32 %xl, %y
          %moving = add nsw i32 %xly, %n
          %moving.ext = sext i32 %moving to i64
          %pm = getelementptr inbounds float, ptr addrspace(1) %a, i64 %moving.ext
          %vm = load float, ptr addrspace(1) %pm
          %xs = add nsw i32 %x, %n
          %xsy = add nsw i32 %xs, %y
          %stored = add nsw i32 %xsy, 7
          %stored.ext = sext i32 %stored to i64
          %ps = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %stored.ext
          %u.ext = sext i32 %u to i64
          %s1 = fadd float %acc, %vw
          %s2 = fadd float %s1, %vt
          %acc.next = fadd float %s2, %vm
          store float %acc.next, ptr addrspace(1) %a
          store ptr addrspace(1) %ps, ptr addrspace(1) %out
          store i64 %u.ext, ptr addrspace(1) %out
          %u.next = add nsw i32 %u, 1
          %done = icmp sgt i32 %u.next, 3
          br i1 %done, label %exit, label %loop
        exit:
          ret void
        })";
    const std::string out = afterPass<ze_cuda::ExactIndexSumsPass>(ir);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.find("%win.ext = sext"), std::string::npos) << out;
    EXPECT_NE(out.find("%u.wide = phi i64 [ -3, %entry ], [ %"), std::string::npos) << out;
    EXPECT_NE(out.find("add nsw i64 %u.wide, 1"), std::string::npos) << out;
    EXPECT_EQ(out.find("%u.ext = sext"), std::string::npos) << out;
    for (const char *kept :
         {"%outside.ext = sext", "%two.ext = sext", "%moving.ext = sext", "%stored.ext = sext"})
        EXPECT_NE(out.find(kept), std::string::npos) << kept << "\n" << out;
}

// A counter that also makes another index of the loop (b[u * m + y], which
// LLVM steps with the 32-bit counter) keeps its sums as they are.
TEST(PtxTranslation, CountersIndexingOtherwiseAreNotWidened) {
    const char *ir = R"(
        define ptx_kernel void @k(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %x, i32 %y,
                                  i32 %m) {
        entry:
          br label %loop
        loop:
          %u = phi i32 [ 0, %entry ], [ %u.next, %loop ]
          %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
          %xu = add nsw i32 %x, %u
          %win = add nsw i32 %xu, %y
          %win.m = add nsw i32 %win, %m
          %win.ext = sext i32 %win.m to i64
          %pw = getelementptr inbounds float, ptr addrspace(1) %a, i64 %win.ext
          %vw = load float, ptr addrspace(1) %pw
          %um = mul nsw i32 %u, %m
          %other = add nsw i32 %um, %y
          %other.ext = sext i32 %other to i64
          %po = getelementptr inbounds float, ptr addrspace(1) %b, i64 %other.ext
          %vo = load float, ptr addrspace(1) %po
          %s = fadd float %acc, %vw
          %acc.next = fadd float %s, %vo
          %u.next = add nsw i32 %u, 1
          %done = icmp sgt i32 %u.next, 9
          br i1 %done, label %exit, label %loop
        exit:
          store float %acc.next, ptr addrspace(1) %a
          ret void
        })";
    const std::string out = afterPass<ze_cuda::ExactIndexSumsPass>(ir);
    ASSERT_FALSE(out.empty());
    EXPECT_NE(out.find("%win.ext = sext"), std::string::npos) << out;
    EXPECT_EQ(out.find(".wide"), std::string::npos) << out;
}

// OpenCL's floating-point build options reach the PTX: by default the
// division and square root OpenCL allows (div.full.f32, 2 ulp;
// sqrt.approx.f32, 1 ulp) and denormals kept;
// -cl-fp32-correctly-rounded-divide-sqrt a correctly rounded division and
// square root; -cl-denorms-are-zero flushes denormals (.ftz);
// -cl-fast-relaxed-math also takes the approximate division, square root and
// exponential.
TEST(PtxTranslation, FloatingPointBuildOptionsReachThePtx) {
    std::vector<uint8_t> spirv = testKernel("/fast_math.spv");
    ASSERT_FALSE(spirv.empty());
    auto translate = [&](const char *flags) {
        ze_cuda::PtxModule ptx;
        std::string log;
        EXPECT_EQ(ze_cuda::translateSpirvToPtx(spirv.data(), spirv.size(), {}, &ptx, &log,
                                               ze_cuda::parseMathOptions(flags)),
                  ZE_RESULT_SUCCESS)
            << log;
        return ptx.ptx;
    };
    auto has = [](const std::string &ptx, const char *text) {
        return ptx.find(text) != std::string::npos;
    };
    const std::string plain = translate("");
    EXPECT_TRUE(has(plain, "div.full.f32")) << plain;
    EXPECT_FALSE(has(plain, "div.rn")) << plain;
    EXPECT_TRUE(has(plain, "sqrt.approx.f32")) << plain;
    EXPECT_FALSE(has(plain, "sqrt.rn")) << plain;
    EXPECT_FALSE(has(plain, "add.rn.ftz.f32") || has(plain, "add.ftz.f32")) << plain;
    const std::string exact = translate("-cl-fp32-correctly-rounded-divide-sqrt");
    EXPECT_TRUE(has(exact, "div.rn.f32")) << exact;
    EXPECT_TRUE(has(exact, "sqrt.rn.f32")) << exact;
    EXPECT_FALSE(has(exact, "sqrt.approx")) << exact;
    EXPECT_FALSE(has(exact, "div.full")) << exact;
    const std::string flushed = translate("-cl-denorms-are-zero");
    EXPECT_TRUE(has(flushed, "div.full.ftz.f32")) << flushed;
    const std::string fast = translate("-cl-std=CL1.2 -cl-fast-relaxed-math");
    EXPECT_TRUE(has(fast, "div.approx.ftz.f32") || has(fast, "rcp.approx.ftz.f32")) << fast;
    EXPECT_TRUE(has(fast, "sqrt.approx")) << fast;
    EXPECT_TRUE(has(fast, "ex2.approx.ftz.f32")) << fast;
    EXPECT_FALSE(has(fast, "div.rn")) << fast;
}

// An LLVM fatal error in code generation (here, one of the kind that calls
// exit()) fails the build with LLVM's message and the kernels that fail
// alone named, and the process goes on to build the next module.
TEST(PtxTranslation, FatalErrorsInCodeGenerationFailTheBuildOnly) {
    std::vector<uint8_t> spirv = testKernel("/native_math.spv");
    ASSERT_FALSE(spirv.empty());
    ze_cuda::fatalErrorOnBuiltin("_Z10native_expDv4_f");
    ze_cuda::PtxModule ptx;
    std::string log;
    // A contained fatal error leaves what the translation was building
    // unreleased (contained.hpp): not leaks for LeakSanitizer to report.
#ifdef ZE_CUDA_TEST_LSAN
    __lsan_disable();
#endif
    ze_result_t result = ze_cuda::translateSpirvToPtx(spirv.data(), spirv.size(), {}, &ptx, &log);
#ifdef ZE_CUDA_TEST_LSAN
    __lsan_enable();
#endif
    ze_cuda::fatalErrorOnBuiltin("");
    EXPECT_EQ(result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_NE(log.find("injected fatal error: _Z10native_expDv4_f"), std::string::npos) << log;
    EXPECT_NE(log.find("kernel unary_float4: injected fatal error"), std::string::npos) << log;
    EXPECT_EQ(log.find("kernel native_and_half"), std::string::npos) << log;
    ze_cuda::PtxModule again;
    std::string againLog;
    EXPECT_EQ(ze_cuda::translateSpirvToPtx(spirv.data(), spirv.size(), {}, &again, &againLog),
              ZE_RESULT_SUCCESS)
        << againLog;
}

} // namespace
