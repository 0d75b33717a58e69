// Tests of the program builder on its own: a PoCL context made directly
// through OpenCL, SPIR-V made at build time from test_kernels/, kernels run
// through plain OpenCL and checked against the host.
#include "program_builder.hpp"
#include "program_internal.hpp"
#include "spirv_words.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace ze_driver {
namespace {

std::vector<uint8_t> readFile(const char *path) {
    std::ifstream file(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(file), {});
}

// Holds a built program and releases it; keeps tests free of cleanup code.
struct Built {
    ProgramBuildResult r;
    explicit Built(ProgramBuildResult result) : r(std::move(result)) {}
    ~Built() {
        if (r.program)
            clReleaseProgram(r.program);
    }
    Built(const Built &) = delete;
    Built &operator=(const Built &) = delete;

    const KernelInfo *kernel(const std::string &name) const {
        for (const KernelInfo &k : r.kernels)
            if (k.name == name)
                return &k;
        return nullptr;
    }
};

// Same layout as Params in program_kernels.cl.
struct Params {
    float scale;
    int32_t offset;
    int64_t bias;
};

class ProgramBuilderTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        cl_uint platformCount = 0;
        clGetPlatformIDs(0, nullptr, &platformCount);
        std::vector<cl_platform_id> platforms(platformCount);
        clGetPlatformIDs(platformCount, platforms.data(), nullptr);
        // The first device with fine- or coarse-grain buffer SVM, as the
        // driver requires.
        for (cl_platform_id platform : platforms) {
            cl_uint deviceCount = 0;
            if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &deviceCount) !=
                CL_SUCCESS)
                continue;
            std::vector<cl_device_id> devices(deviceCount);
            clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, deviceCount, devices.data(), nullptr);
            for (cl_device_id candidate : devices) {
                cl_device_svm_capabilities svm = 0;
                clGetDeviceInfo(candidate, CL_DEVICE_SVM_CAPABILITIES, sizeof(svm), &svm, nullptr);
                if (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) {
                    device_ = candidate;
                    break;
                }
            }
            if (device_)
                break;
        }
        ASSERT_NE(device_, nullptr) << "no OpenCL device with SVM";
        cl_int error = CL_SUCCESS;
        context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &error);
        ASSERT_EQ(error, CL_SUCCESS);
        queue_ = clCreateCommandQueueWithProperties(context_, device_, nullptr, &error);
        ASSERT_EQ(error, CL_SUCCESS);
        kernelsSpv_ = readFile(PROGRAM_KERNELS_SPV);
        ASSERT_FALSE(kernelsSpv_.empty()) << PROGRAM_KERNELS_SPV;
    }
    static void TearDownTestSuite() {
        if (queue_)
            clReleaseCommandQueue(queue_);
        if (context_)
            clReleaseContext(context_);
    }

    static ProgramBuildResult build(const std::vector<uint8_t> &spirv, const char *flags = "",
                                    const std::vector<SpecConstant> &spec = {}) {
        return buildFromSpirv(context_, device_, spirv.data(), spirv.size(), flags, spec);
    }

    // Builds `spirv` (with `flags`) expecting a refusal: MODULE_BUILD_FAILURE,
    // no program, and `reason` in the build log.
    static void expectRefused(const std::vector<uint8_t> &spirv, const std::string &reason,
                              const char *flags = "") {
        Built built(build(spirv, flags));
        EXPECT_EQ(built.r.result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
        EXPECT_EQ(built.r.program, nullptr);
        EXPECT_NE(built.r.log.find(reason), std::string::npos) << built.r.log;
    }

    template <typename T> static T *svmAlloc(size_t count) {
        return static_cast<T *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, count * sizeof(T), 0));
    }

    // Runs `kernel` over `global` work-items (groups of `local`, 0 = any) and waits.
    static void run(cl_kernel kernel, size_t global, size_t local = 0) {
        ASSERT_EQ(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global,
                                         local ? &local : nullptr, 0, nullptr, nullptr),
                  CL_SUCCESS);
        ASSERT_EQ(clFinish(queue_), CL_SUCCESS);
    }

    static cl_kernel createKernel(cl_program program, const char *name) {
        cl_int error = CL_SUCCESS;
        cl_kernel kernel = clCreateKernel(program, name, &error);
        EXPECT_EQ(error, CL_SUCCESS) << name;
        return kernel;
    }

    // Runs the one-work-item kernel `name` of `program`, which writes one
    // word to its only argument, and returns the word (0xdeadbeef if the
    // kernel did not run).
    static cl_uint runWordWriter(cl_program program, const char *name) {
        cl_uint *out = svmAlloc<cl_uint>(1);
        EXPECT_NE(out, nullptr);
        if (out == nullptr)
            return 0xdeadbeef;
        *out = 0xdeadbeef;
        cl_kernel kernel = createKernel(program, name);
        if (kernel != nullptr && clSetKernelArgSVMPointer(kernel, 0, out) == CL_SUCCESS)
            run(kernel, 1);
        cl_uint value = *out;
        if (kernel != nullptr)
            clReleaseKernel(kernel);
        clSVMFree(context_, out);
        return value;
    }

    static void checkVectorAdd(cl_program program) {
        constexpr size_t n = 1000;
        float *a = svmAlloc<float>(n), *b = svmAlloc<float>(n), *c = svmAlloc<float>(n);
        ASSERT_TRUE(a && b && c);
        for (size_t i = 0; i < n; ++i) {
            a[i] = static_cast<float>(i);
            b[i] = 0.5f * static_cast<float>(i) + 1.0f;
            c[i] = -1.0f;
        }
        cl_kernel kernel = createKernel(program, "vector_add");
        ASSERT_NE(kernel, nullptr);
        ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, a), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 1, b), CL_SUCCESS);
        ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 2, c), CL_SUCCESS);
        run(kernel, n);
        for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(c[i], a[i] + b[i]) << i;
        clReleaseKernel(kernel);
        clSVMFree(context_, a);
        clSVMFree(context_, b);
        clSVMFree(context_, c);
    }

    static cl_device_id device_;
    static cl_context context_;
    static cl_command_queue queue_;
    static std::vector<uint8_t> kernelsSpv_;
};

cl_device_id ProgramBuilderTest::device_ = nullptr;
cl_context ProgramBuilderTest::context_ = nullptr;
cl_command_queue ProgramBuilderTest::queue_ = nullptr;
std::vector<uint8_t> ProgramBuilderTest::kernelsSpv_;

TEST_F(ProgramBuilderTest, KernelsInModuleOrder) {
    Built built(build(kernelsSpv_));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    ASSERT_NE(built.r.program, nullptr);
    std::vector<std::string> names;
    for (const KernelInfo &k : built.r.kernels)
        names.push_back(k.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"vector_add", "scale_offset", "group_sum", "lookup"}));
}

TEST_F(ProgramBuilderTest, GlobalPointerArguments) {
    Built built(build(kernelsSpv_));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    const KernelInfo *k = built.kernel("vector_add");
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(k->args.size(), 3u);
    for (const KernelArgInfo &arg : k->args) {
        EXPECT_EQ(arg.kind, ArgKind::GlobalPointer);
        EXPECT_EQ(arg.size, 8u);
        EXPECT_EQ(arg.typeName, "float*");
    }
    EXPECT_EQ(k->requiredGroupSize[0], 0u);
    EXPECT_EQ(k->requiredGroupSize[1], 0u);
    EXPECT_EQ(k->requiredGroupSize[2], 0u);
}

TEST_F(ProgramBuilderTest, StructByValueArgument) {
    Built built(build(kernelsSpv_));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    const KernelInfo *k = built.kernel("scale_offset");
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(k->args.size(), 3u);
    EXPECT_EQ(k->args[0].kind, ArgKind::GlobalPointer);
    EXPECT_EQ(k->args[1].kind, ArgKind::GlobalPointer);
    EXPECT_EQ(k->args[2].kind, ArgKind::Value);
    EXPECT_EQ(k->args[2].size, sizeof(Params));
    EXPECT_NE(k->args[2].typeName.find("Params"), std::string::npos) << k->args[2].typeName;
}

TEST_F(ProgramBuilderTest, LocalArgumentAndRequiredGroupSize) {
    Built built(build(kernelsSpv_));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    const KernelInfo *k = built.kernel("group_sum");
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(k->args.size(), 3u);
    EXPECT_EQ(k->args[0].kind, ArgKind::GlobalPointer);
    EXPECT_EQ(k->args[1].kind, ArgKind::LocalPointer);
    EXPECT_EQ(k->args[1].size, 0u);
    EXPECT_EQ(k->args[1].typeName, "int*");
    EXPECT_EQ(k->args[2].kind, ArgKind::GlobalPointer);
    EXPECT_EQ(k->requiredGroupSize[0], 16u);
    EXPECT_EQ(k->requiredGroupSize[1], 1u);
    EXPECT_EQ(k->requiredGroupSize[2], 1u);
}

TEST_F(ProgramBuilderTest, ConstantPointerAndScalarSizes) {
    Built built(build(kernelsSpv_));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    const KernelInfo *k = built.kernel("lookup");
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(k->args.size(), 6u);
    EXPECT_EQ(k->args[0].kind, ArgKind::ConstantPointer);
    EXPECT_EQ(k->args[0].size, 8u);
    EXPECT_EQ(k->args[1].kind, ArgKind::GlobalPointer);
    const size_t sizes[] = {4, 1, 16, 8}; // uint, char, float4, ulong
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(k->args[2 + i].kind, ArgKind::Value) << i;
        EXPECT_EQ(k->args[2 + i].size, sizes[i]) << i;
    }
    // SPIR-V integers carry no signedness: unless the producer preserved the
    // OpenCL type names as OpStrings, uint and ulong come back as int and long.
    EXPECT_EQ(k->args[2].typeName, "int");
    EXPECT_EQ(k->args[3].typeName, "char");
    EXPECT_EQ(k->args[4].typeName, "float4");
    EXPECT_EQ(k->args[5].typeName, "long");
}

// A producer may keep the OpenCL type names as OpStrings; then they come
// back exactly, signedness and typedef names included.
TEST_F(ProgramBuilderTest, TypeNamesKeptByTheProducer) {
    std::vector<uint8_t> spirv = readFile(NAMED_KERNELS_SPV);
    ASSERT_FALSE(spirv.empty());
    Built built(build(spirv));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    const KernelInfo *lookup = built.kernel("lookup");
    ASSERT_NE(lookup, nullptr);
    std::vector<std::string> names;
    for (const KernelArgInfo &arg : lookup->args)
        names.push_back(arg.typeName);
    EXPECT_EQ(names, (std::vector<std::string>{"int*", "int*", "uint", "char", "float4", "ulong"}));
    const KernelInfo *scale = built.kernel("scale_offset");
    ASSERT_NE(scale, nullptr);
    ASSERT_EQ(scale->args.size(), 3u);
    EXPECT_EQ(scale->args[2].typeName, "Params");
    EXPECT_EQ(scale->args[2].size, sizeof(Params));
}

TEST_F(ProgramBuilderTest, RunsVectorAdd) {
    Built built(build(kernelsSpv_));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    checkVectorAdd(built.r.program);
}

TEST_F(ProgramBuilderTest, RunsStructByValue) {
    Built built(build(kernelsSpv_));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    constexpr size_t n = 256;
    float *in = svmAlloc<float>(n), *out = svmAlloc<float>(n);
    ASSERT_TRUE(in && out);
    for (size_t i = 0; i < n; ++i)
        in[i] = static_cast<float>(i % 17);
    Params params{2.5f, -3, 100};
    cl_kernel kernel = createKernel(built.r.program, "scale_offset");
    ASSERT_NE(kernel, nullptr);
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, in), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 1, out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 2, built.kernel("scale_offset")->args[2].size, &params),
              CL_SUCCESS);
    run(kernel, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], in[i] * 2.5f + -3.0f + 100.0f) << i;
    clReleaseKernel(kernel);
    clSVMFree(context_, in);
    clSVMFree(context_, out);
}

TEST_F(ProgramBuilderTest, RunsLocalMemoryReduction) {
    Built built(build(kernelsSpv_));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    constexpr size_t group = 16, groups = 8, n = group * groups;
    int *in = svmAlloc<int>(n), *out = svmAlloc<int>(groups);
    ASSERT_TRUE(in && out);
    for (size_t i = 0; i < n; ++i)
        in[i] = static_cast<int>(i * 3 % 11) - 4;
    cl_kernel kernel = createKernel(built.r.program, "group_sum");
    ASSERT_NE(kernel, nullptr);
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, in), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 1, group * sizeof(int), nullptr), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 2, out), CL_SUCCESS);
    run(kernel, n, group);
    for (size_t g = 0; g < groups; ++g) {
        int expected = 0;
        for (size_t i = 0; i < group; ++i)
            expected += in[g * group + i];
        ASSERT_EQ(out[g], expected) << g;
    }
    clReleaseKernel(kernel);
    clSVMFree(context_, in);
    clSVMFree(context_, out);
}

TEST_F(ProgramBuilderTest, RunsConstantTableAndScalars) {
    Built built(build(kernelsSpv_));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    constexpr cl_uint tableSize = 7;
    constexpr size_t n = 64;
    int *table = svmAlloc<int>(tableSize), *out = svmAlloc<int>(n);
    ASSERT_TRUE(table && out);
    for (cl_uint i = 0; i < tableSize; ++i)
        table[i] = static_cast<int>(i * i);
    cl_char step = 3;
    cl_float4 weights = {{1.0f, 99.0f, 99.0f, 2.0f}};
    cl_ulong base = 1000;
    cl_kernel kernel = createKernel(built.r.program, "lookup");
    ASSERT_NE(kernel, nullptr);
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, table), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 1, out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 2, sizeof(tableSize), &tableSize), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 3, sizeof(step), &step), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 4, sizeof(weights), &weights), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 5, sizeof(base), &base), CL_SUCCESS);
    run(kernel, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], table[(i * step) % tableSize] + 3 + 1000) << i;
    clReleaseKernel(kernel);
    clSVMFree(context_, table);
    clSVMFree(context_, out);
}

TEST_F(ProgramBuilderTest, IntelCompilerFlagsAreIgnored) {
    Built built(build(kernelsSpv_, "-ze-opt-disable -ze-opt-level=2 "
                                   "-ze-opt-greater-than-4GB-buffer-required "
                                   "-ze-some-future-flag -cl-mad-enable"));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    EXPECT_NE(built.r.log.find("ignored build flags: -ze-some-future-flag\n"), std::string::npos)
        << built.r.log;
    checkVectorAdd(built.r.program);
}

TEST_F(ProgramBuilderTest, BuildOptionFiltering) {
    std::string ignored;
    EXPECT_EQ(detail::openclBuildOptions("  -ze-opt-level=1 -cl-fast-relaxed-math   -DN=4 "
                                         "-x spir -spir-std=1.2 -cl-intel-no-prera-scheduling "
                                         "-ze-some-future-flag",
                                         &ignored),
              "-cl-fast-relaxed-math -DN=4");
    EXPECT_EQ(ignored, "-x spir -spir-std=1.2 -cl-intel-no-prera-scheduling -ze-some-future-flag");
    EXPECT_EQ(detail::openclBuildOptions(nullptr, nullptr), "");
    // The specification's flags are translated, without a note in the log.
    ignored.clear();
    EXPECT_EQ(detail::openclBuildOptions("-ze-opt-disable -ze-opt-level=O0 "
                                         "-ze-opt-greater-than-4GB-buffer-required "
                                         "-ze-opt-large-register-file -ze-opt-level=2",
                                         &ignored),
              "-cl-opt-disable");
    EXPECT_EQ(ignored, "");
}

TEST_F(ProgramBuilderTest, UnknownOpenclOptionFailsWithLog) {
    expectRefused(kernelsSpv_, "clBuildProgram", "-not-an-opencl-option");
}

TEST_F(ProgramBuilderTest, OpenclBuildErrorHasLog) {
    std::vector<uint8_t> spirv = readFile(UNRESOLVED_CALL_SPV);
    ASSERT_FALSE(spirv.empty());
    Built built(build(spirv));
    EXPECT_EQ(built.r.result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_EQ(built.r.program, nullptr);
    EXPECT_TRUE(built.r.kernels.empty());
    EXPECT_NE(built.r.log.find("not_defined_anywhere"), std::string::npos) << built.r.log;
}

TEST_F(ProgramBuilderTest, InvalidSpirvIsRejectedByValidation) {
    // A valid header followed by an instruction with a word count of zero.
    std::vector<uint8_t> spirv = kernelsSpv_;
    const uint32_t broken = 0x0000ffff;
    std::memcpy(spirv.data() + 5 * 4, &broken, sizeof(broken));
    expectRefused(spirv, "SPIR-V validation failed");
}

// Valid SPIR-V on which the translator would abort the process: an access
// aligned to 3 bytes (llvm::Align takes powers of two only).
TEST_F(ProgramBuilderTest, SpirvTheTranslatorCannotTakeIsRejected) {
    std::vector<uint8_t> spirv = readFile(SPEC_CONSTANT_SPV);
    ASSERT_FALSE(spirv.empty());
    std::vector<uint32_t> words(spirv.size() / 4);
    std::memcpy(words.data(), spirv.data(), spirv.size());
    const uint32_t storeWithMemoryAccess = (5u << 16) | 62u; // OpStore, 5 words
    auto store = std::find(words.begin() + 5, words.end(), storeWithMemoryAccess);
    ASSERT_TRUE(store != words.end() && store + 4 < words.end());
    ASSERT_EQ(store[3], 0x2u); // Aligned
    store[4] = 3;
    std::memcpy(spirv.data(), words.data(), spirv.size());
    expectRefused(spirv, "not a power of two");
}

TEST_F(ProgramBuilderTest, NotSpirvIsInvalidArgument) {
    const uint8_t text[] = "this is certainly not SPIR-V at all";
    struct Case {
        const uint8_t *data;
        size_t size;
    } cases[] = {{nullptr, 0}, {nullptr, 64}, {text, 0}, {text, 4},
                 {text, 19},   {text, 21},    {text, 32}};
    for (const Case &c : cases) {
        ProgramBuildResult r = buildFromSpirv(context_, device_, c.data, c.size, "", {});
        EXPECT_EQ(r.result, ZE_RESULT_ERROR_INVALID_ARGUMENT) << c.size;
        EXPECT_EQ(r.program, nullptr);
        EXPECT_FALSE(r.log.empty());
    }
    // Byte-swapped magic: SPIR-V, but big-endian.
    std::vector<uint8_t> swapped(kernelsSpv_.begin(), kernelsSpv_.begin() + 20);
    std::reverse(swapped.begin(), swapped.begin() + 4);
    ProgramBuildResult r = build(swapped);
    EXPECT_EQ(r.result, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(r.log.find("big-endian"), std::string::npos) << r.log;
}

// A valid module but for the reserved schema word of the header, which the
// validator ignores and on which the translator exits the process (found by
// tests/fuzz/module_create).
TEST_F(ProgramBuilderTest, NonzeroSchemaWordIsInvalidArgument) {
    std::vector<uint8_t> spirv(kernelsSpv_);
    for (uint32_t schema : {1u, 0x20000u, 0xffffffffu}) {
        std::memcpy(spirv.data() + 16, &schema, sizeof(schema));
        Built built(build(spirv));
        EXPECT_EQ(built.r.result, ZE_RESULT_ERROR_INVALID_ARGUMENT) << schema;
        EXPECT_EQ(built.r.program, nullptr);
        EXPECT_NE(built.r.log.find("reserved for an instruction schema"), std::string::npos)
            << built.r.log;
    }
}

// A valid module in the 32-bit addressing model: the device is 64-bit, and
// PoCL crashed on the 32-bit SPIR made of it (found by
// tests/fuzz/module_create). Refused, saying what to compile for.
TEST_F(ProgramBuilderTest, ThirtyTwoBitAddressingIsRefused) {
    std::vector<uint32_t> words(kernelsSpv_.size() / 4);
    std::memcpy(words.data(), kernelsSpv_.data(), kernelsSpv_.size());
    size_t model = 0;
    for (const detail::SpirvInstruction &inst : detail::spirvInstructions(words))
        if (inst.opcode == 14) // OpMemoryModel
            model = inst.at + 1;
    ASSERT_NE(model, 0u);
    ASSERT_EQ(words[model], 2u); // Physical64
    words[model] = 1;            // Physical32
    std::vector<uint8_t> spirv(kernelsSpv_.size());
    std::memcpy(spirv.data(), words.data(), spirv.size());
    expectRefused(spirv, "addressing model is Physical32; this device has 64-bit addresses");
}

// A kernel whose name ends in '@' (the linker's symbol versions): PoCL's link
// of it failed and PoCL ended the process (found by tests/fuzz/module_create).
// Refused by name; the module with the name as it was builds.
TEST_F(ProgramBuilderTest, KernelNamesOtherThanIdentifiersAreRefused) {
    Built plain(build(kernelsSpv_));
    ASSERT_EQ(plain.r.result, ZE_RESULT_SUCCESS) << plain.r.log;
    const std::string name = "vector_add";
    std::vector<uint8_t> spirv(kernelsSpv_);
    const std::string text(spirv.begin(), spirv.end());
    size_t renamed = 0;
    for (size_t at = text.find(name + '\0'); at != std::string::npos;
         at = text.find(name + '\0', at + 1), ++renamed)
        spirv[at + name.size() - 1] = '@';
    ASSERT_GT(renamed, 0u);
    expectRefused(spirv, "kernel name \"vector_ad@\" is not made of letters, digits and '_'");
}

// A module declaring an extension the translator does not know: the
// validator accepts any name, the translator would end the process (found by
// tests/fuzz/module_create). Refused, by name; the same module with a name
// the translator knows builds.
TEST_F(ProgramBuilderTest, UnknownExtensionIsRefusedByName) {
    auto withExtension = [](const std::string &name) {
        std::vector<uint32_t> words(kernelsSpv_.size() / 4);
        std::memcpy(words.data(), kernelsSpv_.data(), kernelsSpv_.size());
        std::vector<uint32_t> instruction(name.size() / 4 + 2, 0);
        std::memcpy(&instruction[1], name.data(), name.size());
        instruction[0] = (static_cast<uint32_t>(instruction.size()) << 16) | 10; // OpExtension
        // After the capabilities, where extensions go.
        size_t at = 5;
        for (const detail::SpirvInstruction &inst : detail::spirvInstructions(words))
            if (inst.opcode == 17) // OpCapability
                at = inst.at + inst.size;
        words.insert(words.begin() + at, instruction.begin(), instruction.end());
        return std::vector<uint8_t>(reinterpret_cast<const uint8_t *>(words.data()),
                                    reinterpret_cast<const uint8_t *>(words.data() + words.size()));
    };
    Built unknown(build(withExtension("SPV_INTEL_no_such_extension")));
    EXPECT_EQ(unknown.r.result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_NE(unknown.r.log.find("extension \"SPV_INTEL_no_such_extension\" is unknown to the "
                                 "translator"),
              std::string::npos)
        << unknown.r.log;
    Built known(build(withExtension("SPV_KHR_no_integer_wrap_decoration")));
    EXPECT_EQ(known.r.result, ZE_RESULT_SUCCESS) << known.r.log;
}

// Garbage behind a valid header, and every truncation of a valid module:
// each returns an error (or, for a lucky truncation, builds) and never
// crashes the process.
TEST_F(ProgramBuilderTest, GarbageAndTruncatedSpirvDoNotCrash) {
    std::mt19937 random(1234);
    for (int round = 0; round < 200; ++round) {
        std::vector<uint8_t> bytes(kernelsSpv_.begin(), kernelsSpv_.begin() + 20);
        size_t extra = 4 * (random() % 64);
        for (size_t i = 0; i < extra; ++i)
            bytes.push_back(static_cast<uint8_t>(random()));
        Built built(build(bytes));
        EXPECT_NE(built.r.result, ZE_RESULT_SUCCESS) << round;
        EXPECT_FALSE(built.r.log.empty());
    }
    for (size_t size = 20; size < kernelsSpv_.size(); size += 4 * (1 + size / 400)) {
        std::vector<uint8_t> bytes(kernelsSpv_.begin(), kernelsSpv_.begin() + size);
        Built built(build(bytes));
        if (built.r.result != ZE_RESULT_SUCCESS)
            EXPECT_FALSE(built.r.log.empty()) << size;
    }
    // Random single-word corruption of a valid module.
    for (int round = 0; round < 100; ++round) {
        std::vector<uint8_t> bytes = kernelsSpv_;
        size_t word = 5 + random() % (bytes.size() / 4 - 5);
        uint32_t value = static_cast<uint32_t>(random());
        std::memcpy(bytes.data() + 4 * word, &value, sizeof(value));
        Built built(build(bytes));
        if (built.r.result != ZE_RESULT_SUCCESS)
            EXPECT_FALSE(built.r.log.empty()) << round;
    }
}

TEST_F(ProgramBuilderTest, SpecializationConstants) {
    std::vector<uint8_t> spirv = readFile(SPEC_CONSTANT_SPV);
    ASSERT_FALSE(spirv.empty());
    for (auto [spec, expected] : {std::pair<std::vector<SpecConstant>, cl_uint>{{}, 5u},
                                  {{{7, 42, 4}}, 42u},
                                  {{{8, 1, 4}}, 5u}}) {
        Built built(build(spirv, "", spec));
        ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
        ASSERT_EQ(built.r.kernels.size(), 1u);
        EXPECT_EQ(built.r.kernels[0].name, "write_spec");
        EXPECT_EQ(runWordWriter(built.r.program, "write_spec"), expected);
    }
}

// spec_constant.spv declaring ArbitraryPrecisionIntegersINTEL without its
// OpExtension, as Intel's compilers emit capabilities; empty if the file is
// missing.
std::vector<uint8_t> specModuleWithUndeclaredExtension() {
    std::vector<uint8_t> spirv = readFile(SPEC_CONSTANT_SPV);
    if (spirv.empty())
        return spirv;
    const uint32_t capability[] = {(2u << 16) | 17u, 5844u}; // OpCapability 5844
    spirv.insert(spirv.begin() + 20, reinterpret_cast<const uint8_t *>(capability),
                 reinterpret_cast<const uint8_t *>(capability) + sizeof(capability));
    return spirv;
}

// Translations are kept by content and specialization constants: the same
// bytes under other constants are another program, and a kept translation
// replays its notes into the build log.
TEST_F(ProgramBuilderTest, TranslationsAreKeptByBytesAndConstants) {
    // A capability without its extension, so that the translation has a note.
    std::vector<uint8_t> spirv = specModuleWithUndeclaredExtension();
    ASSERT_FALSE(spirv.empty());
    for (int round = 0; round < 2; ++round)
        for (auto [spec, expected] : {std::pair<std::vector<SpecConstant>, cl_uint>{{}, 5u},
                                      {{{7, 42, 4}}, 42u},
                                      {{{7, 43, 4}}, 43u}}) {
            Built built(build(spirv, "", spec));
            ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
            EXPECT_NE(built.r.log.find("without declaring it"), std::string::npos)
                << "round " << round << ": " << built.r.log;
            EXPECT_EQ(runWordWriter(built.r.program, "write_spec"), expected) << round;
        }
}

// Intel's compilers declare capabilities without the OpExtension that
// introduces them; Intel's driver loads such modules, and so does this one,
// with a note in the build log.
TEST_F(ProgramBuilderTest, CapabilityWithoutItsExtensionIsAccepted) {
    std::vector<uint8_t> spirv = specModuleWithUndeclaredExtension();
    ASSERT_FALSE(spirv.empty());
    Built built(build(spirv));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    EXPECT_NE(built.r.log.find("SPV_INTEL_arbitrary_precision_integers without declaring it"),
              std::string::npos)
        << built.r.log;
    EXPECT_EQ(runWordWriter(built.r.program, "write_spec"), 5u);
}

// SPIR-V 1.4 entry points must list every global variable they use;
// producers that list only the Input variables (the 1.0-1.3 rule) are loaded
// with the list completed.
TEST_F(ProgramBuilderTest, IncompleteInterfaceListIsCompleted) {
    std::vector<uint8_t> spirv = readFile(GLOBAL_TABLE_SPV);
    ASSERT_FALSE(spirv.empty());
    Built built(build(spirv));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    EXPECT_NE(built.r.log.find("added 1 global variable(s) to entry-point interface lists"),
              std::string::npos)
        << built.r.log;
    EXPECT_EQ(runWordWriter(built.r.program, "read_table"), 11u);
}

// SPV_INTEL_memory_access_aliasing's alias scopes (on loads, a store and a
// decoration) are optimisation hints the validator rejects: they are left out,
// the log says so, and the kernel computes what it says.
TEST_F(ProgramBuilderTest, MemoryAliasingHintsAreLeftOut) {
    std::vector<uint8_t> spirv = readFile(ALIAS_SCOPES_SPV);
    ASSERT_FALSE(spirv.empty());
    Built built(build(spirv));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    EXPECT_NE(built.r.log.find("SPV_INTEL_memory_access_aliasing"), std::string::npos)
        << built.r.log;
    constexpr size_t n = 256;
    cl_uint *out = svmAlloc<cl_uint>(n), *in = svmAlloc<cl_uint>(2 * n);
    ASSERT_TRUE(out && in);
    for (size_t i = 0; i < 2 * n; ++i)
        in[i] = static_cast<cl_uint>(i * 7919 % 1000);
    cl_kernel kernel = createKernel(built.r.program, "alias_scaled");
    ASSERT_NE(kernel, nullptr);
    const cl_ulong count = n;
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 1, in), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(kernel, 2, sizeof(count), &count), CL_SUCCESS);
    run(kernel, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], 2 * in[i] + in[i + n]) << i;
    clReleaseKernel(kernel);
    clSVMFree(context_, out);
    clSVMFree(context_, in);
}

// A module without kernels is a valid module (of functions only).
TEST_F(ProgramBuilderTest, ModuleWithoutEntryPointsHasNoKernels) {
    std::vector<uint8_t> spirv = readFile(SPEC_CONSTANT_SPV);
    ASSERT_FALSE(spirv.empty());
    std::vector<uint32_t> words(spirv.size() / 4);
    std::memcpy(words.data(), spirv.data(), spirv.size());
    std::vector<detail::SpirvInstruction> list = detail::spirvInstructions(words);
    auto entry = std::find_if(list.begin(), list.end(), [](const detail::SpirvInstruction &inst) {
        return inst.opcode == 15; // OpEntryPoint
    });
    ASSERT_NE(entry, list.end());
    words.erase(words.begin() + entry->at, words.begin() + entry->at + entry->size);
    spirv.assign(reinterpret_cast<const uint8_t *>(words.data()),
                 reinterpret_cast<const uint8_t *>(words.data() + words.size()));
    Built built(build(spirv));
    ASSERT_EQ(built.r.result, ZE_RESULT_SUCCESS) << built.r.log;
    EXPECT_TRUE(built.r.kernels.empty());
    // Still validated: the same module cut short is refused.
    spirv.resize(spirv.size() - 8);
    Built cut(build(spirv));
    EXPECT_EQ(cut.r.result, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
}

TEST_F(ProgramBuilderTest, ConcurrentBuilds) {
    constexpr int threads = 4;
    std::vector<ze_result_t> results(threads, ZE_RESULT_ERROR_UNKNOWN);
    std::vector<size_t> kernelCounts(threads, 0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            Built built(build(kernelsSpv_));
            results[t] = built.r.result;
            kernelCounts[t] = built.r.kernels.size();
        });
    for (std::thread &thread : pool)
        thread.join();
    for (int t = 0; t < threads; ++t) {
        EXPECT_EQ(results[t], ZE_RESULT_SUCCESS) << t;
        EXPECT_EQ(kernelCounts[t], 4u) << t;
    }
}

TEST_F(ProgramBuilderTest, NativeBinaryRoundTrip) {
    Built original(build(kernelsSpv_));
    ASSERT_EQ(original.r.result, ZE_RESULT_SUCCESS) << original.r.log;
    std::vector<uint8_t> native = serializeNative(original.r.program, device_, original.r.kernels);
    ASSERT_GT(native.size(), 32u);

    Built rebuilt(
        buildFromNative(context_, device_, native.data(), native.size(), "-ze-opt-level=2"));
    ASSERT_EQ(rebuilt.r.result, ZE_RESULT_SUCCESS) << rebuilt.r.log;
    ASSERT_EQ(rebuilt.r.kernels.size(), original.r.kernels.size());
    for (size_t i = 0; i < original.r.kernels.size(); ++i) {
        const KernelInfo &a = original.r.kernels[i], &b = rebuilt.r.kernels[i];
        EXPECT_EQ(a.name, b.name);
        EXPECT_TRUE(std::equal(std::begin(a.requiredGroupSize), std::end(a.requiredGroupSize),
                               std::begin(b.requiredGroupSize)));
        ASSERT_EQ(a.args.size(), b.args.size());
        for (size_t j = 0; j < a.args.size(); ++j) {
            EXPECT_EQ(a.args[j].kind, b.args[j].kind);
            EXPECT_EQ(a.args[j].size, b.args[j].size);
            EXPECT_EQ(a.args[j].typeName, b.args[j].typeName);
        }
    }
    checkVectorAdd(rebuilt.r.program);
    // Serializing the rebuilt program gives an equivalent blob again.
    std::vector<uint8_t> again = serializeNative(rebuilt.r.program, device_, rebuilt.r.kernels);
    Built third(buildFromNative(context_, device_, again.data(), again.size(), nullptr));
    EXPECT_EQ(third.r.result, ZE_RESULT_SUCCESS) << third.r.log;
}

TEST_F(ProgramBuilderTest, BadNativeBinariesAreRejected) {
    Built original(build(kernelsSpv_));
    ASSERT_EQ(original.r.result, ZE_RESULT_SUCCESS) << original.r.log;
    const std::vector<uint8_t> native =
        serializeNative(original.r.program, device_, original.r.kernels);
    ASSERT_GT(native.size(), 64u);

    auto expectRejected = [&](const std::vector<uint8_t> &blob, const char *why,
                              const char *logPart) {
        Built built(buildFromNative(context_, device_, blob.data(), blob.size(), ""));
        EXPECT_EQ(built.r.result, ZE_RESULT_ERROR_INVALID_NATIVE_BINARY) << why;
        EXPECT_EQ(built.r.program, nullptr) << why;
        EXPECT_NE(built.r.log.find(logPart), std::string::npos) << why << ": " << built.r.log;
    };
    expectRejected({}, "empty", "header");
    expectRejected(std::vector<uint8_t>(native.begin(), native.begin() + 10), "short", "header");
    expectRejected(std::vector<uint8_t>(native.begin(), native.end() - 1), "truncated",
                   "truncated");
    expectRejected(std::vector<uint8_t>(native.begin(), native.begin() + native.size() / 2), "half",
                   "truncated");
    std::vector<uint8_t> padded = native;
    padded.push_back(0);
    expectRejected(padded, "padded", "padded");
    std::vector<uint8_t> corrupted = native;
    corrupted[corrupted.size() / 2] ^= 0x40;
    expectRejected(corrupted, "corrupted", "checksum");
    std::vector<uint8_t> foreign = native;
    foreign[0] = 'X';
    expectRejected(foreign, "foreign", "magic");
    expectRejected(kernelsSpv_, "SPIR-V as native", "magic");
    std::vector<uint8_t> newer = native;
    newer[8] = 99;
    expectRejected(newer, "version", "version");

    Built nullData(buildFromNative(context_, device_, nullptr, 100, ""));
    EXPECT_EQ(nullData.r.result, ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);

    // Random garbage of many sizes, with and without a valid magic.
    std::mt19937 random(99);
    for (int round = 0; round < 100; ++round) {
        std::vector<uint8_t> blob(random() % 200);
        for (uint8_t &b : blob)
            b = static_cast<uint8_t>(random());
        if (round % 2 && blob.size() >= 8)
            std::memcpy(blob.data(), native.data(), 8);
        Built built(buildFromNative(context_, device_, blob.data(), blob.size(), ""));
        EXPECT_EQ(built.r.result, ZE_RESULT_ERROR_INVALID_NATIVE_BINARY) << round;
    }
}

TEST_F(ProgramBuilderTest, NullContextIsAnError) {
    ProgramBuildResult r =
        buildFromSpirv(nullptr, device_, kernelsSpv_.data(), kernelsSpv_.size(), "", {});
    EXPECT_NE(r.result, ZE_RESULT_SUCCESS);
    EXPECT_EQ(r.program, nullptr);
}

} // namespace
} // namespace ze_driver
