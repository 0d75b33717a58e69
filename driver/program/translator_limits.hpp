// Valid SPIR-V that LLVMSPIRVLib 15 still cannot take.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ze_driver {
namespace detail {

// Checks a module the SPIRV-Tools validator accepted for the constructs on
// which the translator aborts instead of reporting an error. Debian's
// translator is built with assertions, and it asserts (ending the process)
// where its tables or LLVM's types are narrower than SPIR-V: each rule here
// stands for such an abort, found by feeding it corrupted modules.
// Returns ZE_RESULT_SUCCESS, or ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with
// the reason appended to `log`.
ze_result_t checkTranslatorLimits(const std::vector<uint32_t> &words, std::string *log);

} // namespace detail
} // namespace ze_driver
