#include "config.hpp"

#include <cstdlib>

namespace imex_l0::compiler {
namespace {

void parse(const char *text, std::string &out) { out = text; }

void parse(const char *text, uint64_t &out) {
    char *end = nullptr;
    unsigned long long value = std::strtoull(text, &end, 0);
    // A malformed number keeps the default rather than silently becoming 0.
    if (end != text && *end == '\0')
        out = value;
}

Config readEnvironment() {
    Config c;
#define X(field, env, type, def, doc)                                                              \
    if (const char *text = std::getenv(env))                                                       \
        parse(text, c.field);
#include "config.def"
#undef X
    return c;
}

} // namespace

const Config &config() {
    static const Config c = readEnvironment();
    return c;
}

} // namespace imex_l0::compiler
