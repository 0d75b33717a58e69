// The compiler's environment options (the table is config.def).
#pragma once

#include <cstdint>
#include <string>

namespace imex_l0::compiler {

struct Config {
#define X(field, env, type, def, doc) type field = def;
#include "config.def"
#undef X
};

// The options as the environment set them when the compiler was first used.
const Config &config();

} // namespace imex_l0::compiler
