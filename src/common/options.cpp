#include "common/options.hpp"

#include <cstdlib>

namespace imex_l0 {

const Options &options() {
    // A function-local static is initialised once, thread-safely.
    static const Options values = [] {
        Options o;
#define IMEX_L0_OPTION(field, env, def, doc)                                                       \
    {                                                                                              \
        const char *v = std::getenv(#env);                                                         \
        o.field = (v && *v) ? v : def;                                                             \
    }
#include "common/options.def"
#undef IMEX_L0_OPTION
        return o;
    }();
    return values;
}

} // namespace imex_l0
