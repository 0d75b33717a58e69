// The C++ wrapper with IMEX_L0_NO_EXCEPTIONS (and compiled with
// -fno-exceptions): a failing call returns an empty object, nullptr or false,
// and imex_l0::last_status() with imex_l0_last_error_message() say why.
#include "imex_l0_interop.hpp"

#include "interop_fixtures.hpp"

#include <cstdlib>

using namespace interop_test;

namespace {

class CppNoExceptTest : public WithDriver {};

TEST_F(CppNoExceptTest, FailuresReturnEmptyObjects) {
    imex_l0::engine missing(1000u);
    EXPECT_FALSE(missing);
    EXPECT_NE(imex_l0::last_status(), imex_l0_success);
    EXPECT_NE(lastError(), "");

    imex_l0::engine engine(driver, device, context.get());
    ASSERT_TRUE(engine);
    EXPECT_EQ(imex_l0::last_status(), imex_l0_success);

    void *plain = std::malloc(32);
    imex_l0::memory bad(engine, imex_l0_memory_kind_host, 32, plain);
    EXPECT_FALSE(bad);
    EXPECT_EQ(imex_l0::last_status(), imex_l0_invalid_arguments);
    EXPECT_MESSAGE_HAS("USM");
    std::free(plain);

    auto broken = imex_l0::kernel::from_source(engine, "kernel void k(void) { oops }", "k");
    EXPECT_FALSE(broken);
    EXPECT_EQ(imex_l0::last_status(), imex_l0_compile_error);

    imex_l0::stream stream(engine);
    ASSERT_TRUE(stream);
    imex_l0::memory m(engine, imex_l0_memory_kind_shared, 16);
    ASSERT_TRUE(m);
    EXPECT_EQ(m.data(3), nullptr);
    EXPECT_EQ(imex_l0::last_status(), imex_l0_invalid_arguments);

    imex_l0::memory other(engine, imex_l0_memory_kind_shared, 16);
    ze_event_handle_t e = stream.memcpy(other.data(), m.data(), 16);
    ASSERT_NE(e, nullptr);
    ASSERT_ZE(zeEventHostSynchronize(e, UINT64_MAX));
    EXPECT_TRUE(engine.release(e));
    EXPECT_FALSE(engine.release(e));
    EXPECT_EQ(imex_l0::last_status(), imex_l0_invalid_arguments);
}

TEST_F(CppNoExceptTest, SuccessfulLaunch) {
    imex_l0::engine engine(driver, device, context.get());
    imex_l0::stream stream(engine);
    imex_l0::memory out(engine, imex_l0_memory_kind_shared, 64 * sizeof(uint32_t));
    auto kernel = imex_l0::kernel::from_source(engine, kernelSource(), "fill_index");
    ASSERT_TRUE(kernel) << lastError();
    ze_event_handle_t done = kernel.execute(stream, {imex_l0::arg::mem(out)}, range1d(64));
    ASSERT_NE(done, nullptr) << lastError();
    ASSERT_ZE(zeEventHostSynchronize(done, UINT64_MAX));
    EXPECT_TRUE(engine.release(done));
    for (uint32_t i = 0; i < 64; ++i)
        ASSERT_EQ(static_cast<uint32_t *>(out.data())[i], i);
}

} // namespace
