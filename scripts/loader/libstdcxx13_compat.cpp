// Loaded as a dependency of the Level Zero loader 1.20 (built with GCC 14)
// on a system whose libstdc++ is GCC 12's. GCC 13 moved the initialisation
// of the standard streams out of every translation unit that includes
// <iostream> into libstdc++ itself, and objects built by it reference
// std::ios_base_library_init() to pull that in. GCC 12's libstdc++ has
// neither, so this library provides both: the function (empty; its only
// purpose is to be referenced) and one ios_base::Init object, constructed
// before the loader's own constructors run because the loader depends on us.
#include <ios>

static std::ios_base::Init streams;

namespace std {
void ios_base_library_init() {}
} // namespace std
