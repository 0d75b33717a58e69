// The non-throwing half of cpp_wrapper_modes_test.cpp, compiled with
// -fno-exceptions: the wrapper sees no __cpp_exceptions and does not throw.
#include "imex_l0_interop.hpp"

#ifdef __cpp_exceptions
#error "this unit must be compiled with -fno-exceptions"
#endif

bool nothrowEngineFailsQuietly() {
    imex_l0::engine missing(1000u);
    return !missing && imex_l0::last_status() != imex_l0_success;
}
