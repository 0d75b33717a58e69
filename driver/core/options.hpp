// The driver's options: the environment variables of options.def, read once.
#pragma once

#include <string>

namespace ze_driver {

struct Options {
#define OPTION(member, env, def, doc) std::string member;
#include "options.def"
#undef OPTION
};

// The options as read at the first call; later changes of the environment are
// not seen (the driver's state is built from them once).
const Options &options();

} // namespace ze_driver
