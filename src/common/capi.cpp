// The process-wide C entry points: version and logging.
#include "common/c_enum.hpp"
#include "common/object.hpp"
#include "common/status.hpp"
#include "common/verbose.hpp"

// The header's macros are the project's version (CMake passes it in).
static_assert(IMEX_L0_VERSION_MAJOR == IMEX_L0_PROJECT_VERSION_MAJOR &&
                  IMEX_L0_VERSION_MINOR == IMEX_L0_PROJECT_VERSION_MINOR &&
                  IMEX_L0_VERSION_PATCH == IMEX_L0_PROJECT_VERSION_PATCH,
              "include/imex_l0_interop.h's version macros differ from the project version");

using namespace imex_l0;

extern "C" {

imex_l0_status_t imex_l0_get_version(imex_l0_version_t *version) {
    return guard(__func__, [&] {
        requireOutput(version, "version");
        *version = {IMEX_L0_VERSION_MAJOR, IMEX_L0_VERSION_MINOR, IMEX_L0_VERSION_PATCH};
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_set_log_level(imex_l0_log_level_t level) {
    return guard(__func__, [&] {
        int raw = rawValue(level); // any int from a C caller
        if (raw < imex_l0_log_none || raw > imex_l0_log_trace)
            failInvalid("level " + std::to_string(raw) +
                        " is not an imex_l0_log_level_t (imex_l0_log_none to imex_l0_log_trace)");
        setVerbosity(static_cast<Verbosity>(raw));
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_set_log_callback(imex_l0_log_callback_t callback, void *user_data) {
    return guard(__func__, [&] {
        setLogCallback(callback, user_data);
        return imex_l0_success;
    });
}

} // extern "C"
