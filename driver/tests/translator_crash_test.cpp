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

    ASSERT_NO_FATAL_FAILURE(checkVectorAdd(module, 16, 256));
}

} // namespace
} // namespace zetest
