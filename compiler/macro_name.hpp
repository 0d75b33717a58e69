// Whether a define's name is a macro name: letters, digits and '_', not
// starting with a digit. "A B" would reach clang as -DA B and define A, so
// both the library's C API and the compiler refuse such names.
#pragma once

#include <cctype>

namespace imex_l0 {

inline bool isMacroName(const char *name) {
    if (!name || !*name || std::isdigit(static_cast<unsigned char>(name[0])))
        return false;
    for (const char *c = name; *c; ++c)
        if (!std::isalnum(static_cast<unsigned char>(*c)) && *c != '_')
            return false;
    return true;
}

} // namespace imex_l0
