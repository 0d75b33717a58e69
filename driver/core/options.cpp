#include "options.hpp"

#include "backend.hpp"
#include "object.hpp"

#include <cstdio>
#include <cstdlib>

namespace ze_driver {

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

TraceLevel traceLevel() {
    return options().trace == "all"      ? TraceLevel::All
           : options().trace == "errors" ? TraceLevel::Errors
                                         : TraceLevel::Off;
}

void traceCall(const char *entry, ze_result_t result) {
    std::fprintf(stderr, "ze_%s: %s -> 0x%x\n", backend::kName, entry, static_cast<unsigned>(result));
}

} // namespace ze_driver
