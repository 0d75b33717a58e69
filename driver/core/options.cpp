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

bool traceWanted(ze_result_t result) {
    enum class Level { Off, Errors, All };
    static const Level level = options().trace == "all"      ? Level::All
                               : options().trace == "errors" ? Level::Errors
                                                             : Level::Off;
    // NOT_READY is an answer (a poll or a wait that timed out), not an error.
    return level == Level::All ||
           (level == Level::Errors && result != ZE_RESULT_SUCCESS && result != ZE_RESULT_NOT_READY);
}

void traceCall(const char *entry, ze_result_t result) {
    std::fprintf(stderr, "ze_%s: %s -> 0x%x\n", backend::kName, entry, static_cast<unsigned>(result));
}

} // namespace ze_driver
