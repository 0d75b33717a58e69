// The host cost of a launch through the library's stream over a framework's
// sycl::queue (imex_l0_sycl.hpp) against the plain SYCL submission of the
// same kernel: handler::set_args + parallel_for of a sycl::kernel made from
// the same SPIR-V. One in-order queue over an immediate list; both sides
// launch an empty kernel with four USM pointer arguments and wait every
// kBatch launches (the library side with stream::wait, since a SYCL wait
// does not see the library's commands; the SYCL side with queue::wait).
// A SYCL submission always makes an event; the library's launch is timed
// without one and with one.
//
// Run it with the SYCL environment (build/benchmarks/run_bench_sycl.sh sets
// it: the Level Zero loader SYCL needs, the device reported as a GPU).
#include "bench_common.hpp"

#include "imex_l0_sycl.hpp"

#include <array>

namespace {

constexpr size_t kArgs = 4;

struct Setup {
    sycl::queue queue{sycl::gpu_selector_v, sycl::property::queue::in_order{}};
    std::vector<char> spirv;
    std::array<int *, kArgs> buffers{};
    imex_l0::engine engine = imex_l0::sycl_interop::make_engine(queue);
    imex_l0::stream stream = imex_l0::sycl_interop::make_stream(engine, queue);

    Setup() {
        std::string bytes = bench::readFile(std::string(IMEX_BENCH_SPIRV_DIR) + "/empty.spv");
        spirv.assign(bytes.begin(), bytes.end());
        for (int *&b : buffers)
            b = sycl::malloc_device<int>(16, queue);
    }
    ~Setup() {
        for (int *b : buffers)
            sycl::free(b, queue);
    }
};

Setup &setup() {
    static Setup s;
    return s;
}

void Launch_SyclSubmit(benchmark::State &state) {
    Setup &s = setup();
    imex_l0::sycl_interop::spirv_kernel empty4 = imex_l0::sycl_interop::make_kernel(
        s.queue.get_context(), s.queue.get_device(), s.spirv, "empty4");
    auto [a, b, c, d] = s.buffers;
    bench::launchLoop(
        state, __func__,
        [&] {
            s.queue.submit([&](sycl::handler &h) {
                h.set_args(a, b, c, d);
                h.parallel_for(sycl::range<1>(1), empty4.kernel);
            });
        },
        [&] { s.queue.wait(); });
}

// The library's launch; with an event, as every SYCL submission returns
// one: the event is released (to the engine's pool) at once.
void libraryLaunches(benchmark::State &state, const char *name, bool withEvent) {
    Setup &s = setup();
    auto kernel = imex_l0::kernel::from_spirv(s.engine, s.spirv.data(), s.spirv.size(), "empty4");
    std::vector<imex_l0::arg> args;
    for (int *p : s.buffers)
        args.push_back(imex_l0::arg::usm(p));
    const imex_l0_range_t range = {{1, 1, 1}, {1, 1, 1}};
    bench::launchLoop(
        state, name,
        [&] {
            if (withEvent)
                kernel.execute_event(s.stream, args, range);
            else
                kernel.execute(s.stream, args, range, {}, false);
        },
        [&] { s.stream.wait(); });
}

void Launch_LibraryOnSyclQueue(benchmark::State &state) {
    libraryLaunches(state, __func__, false);
}

void Launch_LibraryOnSyclQueueEvent(benchmark::State &state) {
    libraryLaunches(state, __func__, true);
}

} // namespace

BENCHMARK(Launch_SyclSubmit)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_LibraryOnSyclQueue)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_LibraryOnSyclQueueEvent)->UseRealTime()->Unit(benchmark::kMicrosecond);

int main(int argc, char **argv) {
    using bench::Metric;
    bench::useBuiltDriver();
    setenv("UR_L0_USE_IMMEDIATE_COMMANDLISTS", "1", 0);
    setup();
    return bench::runWithSummary(
        argc, argv,
        {
            {"Launch_LibraryOnSyclQueue", "Launch_SyclSubmit", 1.10, Metric::cpuTime},
            {"Launch_LibraryOnSyclQueueEvent", "Launch_SyclSubmit", 1.10, Metric::cpuTime},
        });
}
