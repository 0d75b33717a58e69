// Parses an OpenCL build-option string ("-cl-std=CL2.0 -DN=4 -cl-mad-enable")
// into what the compiler needs: the language version, the optimisation level,
// user include directories and the flags handed to clang's cc1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "imex_l0_interop.h"

namespace imex_l0::compiler {

struct BuildOptions {
    std::string clStd = "CL1.2";        // CL1.2, CL2.0 or CL3.0
    unsigned optLevel = 2;              // -O0..-O3; -cl-opt-disable is -O0
    std::vector<std::string> includeDirs; // absolute paths from -I
    std::vector<std::string> ccArgs;    // -D/-U/-W/-cl-* flags for cc1, in order
    std::string error;                  // non-empty: the option string is rejected
    std::string warnings;               // "warning: ..." lines for the build log

    // A canonical rendering of everything above that changes the output; part
    // of every cache key and of the dump.
    std::string canonical() const;
};

// options may be NULL. Defines from imex_l0_define_t come after the option
// string's own -D flags, so they win on redefinition (with a warning).
BuildOptions parseBuildOptions(const char *options, size_t ndefines,
                               const imex_l0_define_t *defines);

// The cc1 arguments for what an OpenCL implementation defines and clang
// leaves to it, for both back ends (before the caller's own -D/-U, which may
// override them): __OPENCL_VERSION__, here the version the compile targets
// (Level Zero reports none for a device), and the removal of the extensions
// the spir target claims but no Level Zero device has builtins for (AMD's
// media ops and ARM's dot products have no SPIR-V form, and there is no
// OpenGL sharing), and the
// -include of kImplementationHeader. See docs/compiler.md, "Predefined
// macros".
std::vector<std::string> implementationArguments(const BuildOptions &options);

// Included after the builtin header, beside the main file: it #undefs the
// extension macros clang 15's opencl-c-base.h defines for every SPIR target
// (so -cl-ext cannot remove them) where this compiler cannot keep their
// promise: integer dot products and sub-group rotates always, the
// SPIR-V 1.3 sub-group extensions below target version 1.3.
constexpr const char *kImplementationHeader = "__imex_l0_implementation.h";
std::string implementationHeader(uint32_t spirvVersion);

} // namespace imex_l0::compiler
