// IMEX_L0_DUMP_DIR: every build (not cache hits) writes <dir>/<key>.cl (the
// source as given), <key>.i (after preprocessing), <key>.options (options, defines, SPIR-V version, the
// toolchain identity and the registered header names), <key>.log and, on
// success, <key>.spv.
#pragma once

#include <string>

#include "compiler.hpp"

namespace imex_l0::compiler {

void dumpBuild(const std::string &dir, const std::string &keyHex, const CompileRequest &request,
               const CompileResult &result);

} // namespace imex_l0::compiler
