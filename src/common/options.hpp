// The library's environment options (see options.def for the table).
#pragma once

#include <string>

namespace imex_l0 {

struct Options {
#define IMEX_L0_OPTION(field, env, def, doc) std::string field;
#include "common/options.def"
#undef IMEX_L0_OPTION
};

// Read from the environment on first call; immutable afterwards.
const Options &options();

} // namespace imex_l0
