#include "options.hpp"

#include <cstdlib>

namespace ze_opencl {

namespace {
Options readOptions() {
    Options o;
#define OPTION(member, env, def, doc)                                                              \
    {                                                                                              \
        const char *value = std::getenv(env);                                                      \
        o.member = value != nullptr ? value : def;                                                 \
    }
#include "options.def"
#undef OPTION
    return o;
}
} // namespace

const Options &options() {
    static const Options o = readOptions();
    return o;
}

} // namespace ze_opencl
