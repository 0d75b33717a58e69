// What real Level Zero drivers accept and SPIRV-Tools' validator does not.
//
// The validator stands between the application and the translator so that
// malformed SPIR-V never reaches code that aborts on it. Some modules that
// Intel's driver loads break rules whose only purpose is bookkeeping, not the
// meaning of the code; producers (the translator itself among them) emit them.
// Such modules are repaired before validation, each repair noted in the build
// log, rather than rejected. Everything else is validated as before.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ze_driver {
namespace detail {

// Repairs `words` in place:
// - SPV_INTEL_memory_access_aliasing: its alias scopes, optimisation hints
//   the validator of SPIRV-Tools 2023.1 rejects, are left out.
// - SPIR-V 1.4 and later: every entry point's interface list gets the
//   module's global variables it lacks (1.4 made the list cover every global,
//   and producers still list only the Input ones, as 1.0-1.3 required).
// A module whose instruction stream is malformed is left as it is, for the
// validator to reject.
void repairBeforeValidation(std::vector<uint32_t> &words, std::string *log);

// The validator's error on a declared capability whose extension the module
// does not declare ("... requires one of these extensions: A B"): adds
// `OpExtension "A"` after the capabilities and returns true. The translator
// reads every extension it knows anyway, so the declaration only restores
// what the producer left out. Returns false (nothing changed) for any other
// error.
bool addExtensionTheValidatorAsksFor(std::vector<uint32_t> &words, const std::string &error,
                                     std::string *log);

// A copy of `words` for the validator only: a module without entry points is
// valid for Intel's driver (a module of functions and no kernels), while the
// validator allows that only to modules declaring the Linkage capability, so
// the copy declares it. Returns `words` unchanged otherwise.
std::vector<uint32_t> validatorView(const std::vector<uint32_t> &words);

} // namespace detail
} // namespace ze_driver
