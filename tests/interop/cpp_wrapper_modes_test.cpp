// One program, two translation units of the C++ wrapper: this one with
// exceptions, cpp_wrapper_modes_nothrow.cpp built with -fno-exceptions and no
// macro. Each keeps its own mode whatever the link order: the wrapper's
// inline functions differ between the modes, so they must not be one
// definition.
#include "imex_l0_interop.hpp"

#include <gtest/gtest.h>

// Defined in cpp_wrapper_modes_nothrow.cpp: an engine on a device that does
// not exist, without exceptions; returns whether it came back empty with the
// failure recorded.
bool nothrowEngineFailsQuietly();

namespace {

TEST(CppWrapperModes, TheThrowingUnitThrows) {
    EXPECT_THROW(imex_l0::engine missing(1000u), imex_l0::error);
}

TEST(CppWrapperModes, TheNonThrowingUnitReturnsEmpty) {
    EXPECT_TRUE(nothrowEngineFailsQuietly());
}

TEST(CppWrapperModes, BothShareTheLastStatus) {
    imex_l0::clear_first_failure();
    EXPECT_TRUE(nothrowEngineFailsQuietly());
    EXPECT_NE(imex_l0::first_failure().status, imex_l0_success)
        << "a failure in the non-throwing unit is this thread's first failure too";
}

} // namespace
