// The driver contains a crash of the SPIR-V translator inside zeModuleCreate.
// Run with ZE_OPENCL_FAULT=translator:crash (the ctest entry sets it): the
// first translation raises SIGSEGV inside the translator's call; that module
// fails with a build log, the process lives on, and the next module of the
// same bytes builds and computes correctly.
#include "ze_test_common.hpp"

#include <cstdlib>

namespace zetest {
namespace {

class TranslatorCrashTest : public WithImmediateList {};

TEST_F(TranslatorCrashTest, CrashIsABuildFailureAndTheNextModuleBuilds) {
    const char *fault = std::getenv("ZE_OPENCL_FAULT");
    ASSERT_TRUE(fault && std::string(fault) == "translator:crash")
        << "run with ZE_OPENCL_FAULT=translator:crash";
    const std::vector<uint8_t> spirv = loadSpirv("basic");
    ASSERT_FALSE(spirv.empty());

    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = spirv.size();
    desc.pInputModule = spirv.data();
    desc.pBuildFlags = "";
    const bool withLog = buildLogOfAFailedBuildIsUsable();
    BuildLog log;
    ze_module_handle_t crashed = nullptr;
    ASSERT_ZE_RESULT(
        ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
        zeModuleCreate(context_, device_, &desc, &crashed, withLog ? log.out() : nullptr));
    EXPECT_EQ(crashed, nullptr);
    if (withLog) {
        const std::string text = buildLogText(log);
        EXPECT_NE(text.find("internal error in the SPIR-V translator"), std::string::npos) << text;
    }

    Module module;
    std::string secondLog;
    ASSERT_ZE_SUCCESS(
        createModule(context_, device_, spirv, ZE_MODULE_FORMAT_IL_SPIRV, module, "", &secondLog));
    EXPECT_NE(secondLog.find("crashed on an earlier module"), std::string::npos) << secondLog;

    constexpr uint32_t n = 256;
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "vector_add", 16));
    UsmBuffer<int> a, b, c;
    allocate(a, UsmKind::Shared, n);
    allocate(b, UsmKind::Shared, n);
    allocate(c, UsmKind::Shared, n);
    for (uint32_t i = 0; i < n; ++i) {
        a[i] = testValue(i, 3);
        b[i] = testValue(i, 4);
        c[i] = 0;
    }
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(a), usm(b), usm(c)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {n / 16, 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(c[i], a[i] + b[i]) << "i=" << i;
}

} // namespace
} // namespace zetest
