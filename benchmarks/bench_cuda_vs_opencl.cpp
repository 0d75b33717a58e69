// The same OpenCL C source built by an OpenCL platform (NVIDIA's own, by
// default) and by this project's stack (the library's compiler to SPIR-V,
// zeModuleCreate on libze_cuda.so: the translation to PTX), run on the same
// GPU in one process: each kernel's device time per launch (OpenCL profiling
// events on one side, Level Zero kernel timestamps on the other), the two
// sides taking turns of kTurn launches (the ratio: the median of the turns'
// ratios), each side's build time, and the outputs of both compared.
// Every kernel twice: as built by default and with -cl-fast-relaxed-math.
//
// The cases come from suite files (kernel_suite.hpp): this project's
// kernels/math/cases.txt (option pricing, an n-body step, Mandelbrot, a chain
// of transcendental functions, and the memory-bound triad as the control)
// and kernels/math/builtins.txt (OpenCL C's builtins family by family), or
// those BENCH_KERNEL_SUITE names (a:b), such as a suite of public
// projects' kernels. Other variables:
//   BENCH_OPENCL_PLATFORM    a part of the platform's name (NVIDIA);
//   ZE_ENABLE_ALT_DRIVERS    the Level Zero driver (libze_cuda.so): with
//                            libze_opencl.so and "Portable" the suite runs on
//                            the CPU, against PoCL;
//   BENCH_SAVE_OUTPUTS=dir   the buffers our first launch wrote, sampled,
//                            kept there (<case>_<variant>.<buffer>.bin);
//   BENCH_REFERENCE_OUTPUTS=dir   and compared with those of another run
//                            (the CPU driver's against the GPU driver's);
//   BENCH_NVIDIA_PTX_DIR=dir the platform's program binaries;
//   BENCH_COMPARE_ONLY=name  run-and-compare (scripts/run_compare.sh): only
//                            the case of that name, once, as built by
//                            default, its outputs compared, nothing timed;
//                            a side that does not build (or a platform not
//                            found) leaves the other to run, and a launch
//                            says so before it starts (a fault ends the
//                            process: the script reports it).
// Without the platform (on the GPU machine NVIDIA's must be registered with
// the ICD loader: as root, echo libnvidia-opencl.so.1 >
// /etc/OpenCL/vendors/nvidia.icd) it says it skipped.
#define CL_TARGET_OPENCL_VERSION 300
#include "bench_common.hpp"

#include "imex_l0_interop.h"
#include "kernel_suite.hpp"

#include <CL/cl.h>

#include "opencl_queue.hpp"

#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <stdexcept>

namespace {

using bench::suite::Case;

// A side that could not build a case: the case is left out, with the log.
struct NotBuilt : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A side runs a case: a launch and its device time in seconds; its outputs;
// how long its build took.
class Side {
public:
    virtual ~Side() = default;
    virtual double launch() = 0;
    virtual std::vector<uint8_t> output(size_t index) = 0;
    double buildSeconds = 0;
};

using Clock = std::chrono::steady_clock;
double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

class OpenClSide : public Side {
public:
    OpenClSide(const bench::OpenClQueue &platform, const Case &c, const std::string &options,
               const std::string &tag)
        : case_(c), context_(platform.context), queue_(platform.queue) {
        cl_device_id device = platform.device;
        cl_int e = CL_SUCCESS;
        const std::string text = c.source();
        const char *ptr = text.c_str();
        const Clock::time_point start = Clock::now();
        program_ = clCreateProgramWithSource(context_, 1, &ptr, nullptr, &e);
        BENCH_CL(e);
        if (clBuildProgram(program_, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
            char log[8192] = {};
            clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log,
                                  nullptr);
            throw NotBuilt("the OpenCL platform did not build " + c.name + ":\n" + log);
        }
        kernel_ = clCreateKernel(program_, c.kernel.c_str(), &e);
        if (e != CL_SUCCESS)
            throw NotBuilt("the OpenCL platform has no kernel " + c.kernel + ": " +
                           std::to_string(e));
        buildSeconds = since(start);
        dumpBinary(tag);
        for (const bench::suite::Buffer &b : c.buffers) {
            buffers_.push_back(clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                              b.init.size(), const_cast<uint8_t *>(b.init.data()),
                                              &e));
            BENCH_CL(e);
        }
        for (cl_uint i = 0; i < c.args.size(); ++i) {
            const bench::suite::Arg &a = c.args[i];
            if (a.buffer >= 0)
                BENCH_CL(clSetKernelArg(kernel_, i, sizeof(cl_mem), &buffers_[a.buffer]));
            else if (a.localBytes > 0)
                BENCH_CL(clSetKernelArg(kernel_, i, a.localBytes, nullptr));
            else
                BENCH_CL(clSetKernelArg(kernel_, i, a.value.size(), a.value.data()));
        }
    }
    ~OpenClSide() override {
        for (cl_mem b : buffers_)
            clReleaseMemObject(b);
        if (kernel_)
            clReleaseKernel(kernel_);
        clReleaseProgram(program_);
    }
    double launch() override {
        cl_event done = nullptr;
        BENCH_CL(clEnqueueNDRangeKernel(queue_, kernel_, case_.dimensions, nullptr, case_.global,
                                        case_.local, 0, nullptr, &done));
        BENCH_CL(clWaitForEvents(1, &done));
        cl_ulong start = 0, end = 0;
        BENCH_CL(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof(start), &start,
                                         nullptr));
        BENCH_CL(
            clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr));
        clReleaseEvent(done);
        return double(end - start) * 1e-9;
    }
    // BENCH_NVIDIA_PTX_DIR=<dir>: the platform's build of each case (its
    // program binary: NVIDIA's PTX) is written there, <case>.<tag>.ptx, to
    // compare with the translation's (driver/cuda/tools/ze_cuda_ptx).
    void dumpBinary(const std::string &tag) const {
        const char *dir = std::getenv("BENCH_NVIDIA_PTX_DIR");
        if (dir == nullptr)
            return;
        size_t size = 0;
        BENCH_CL(clGetProgramInfo(program_, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr));
        std::vector<unsigned char> binary(size);
        unsigned char *data = binary.data();
        BENCH_CL(clGetProgramInfo(program_, CL_PROGRAM_BINARIES, sizeof(data), &data, nullptr));
        std::ofstream(std::string(dir) + "/" + case_.name + "." + tag + ".ptx", std::ios::binary)
            .write(reinterpret_cast<const char *>(binary.data()), std::streamsize(size));
    }
    std::vector<uint8_t> output(size_t index) override {
        std::vector<uint8_t> bytes(case_.buffers[index].init.size());
        BENCH_CL(clEnqueueReadBuffer(queue_, buffers_[index], CL_TRUE, 0, bytes.size(),
                                     bytes.data(), 0, nullptr, nullptr));
        return bytes;
    }

private:
    const Case &case_;
    cl_context context_;     // the platform's
    cl_command_queue queue_; // the platform's
    cl_program program_ = nullptr;
    cl_kernel kernel_ = nullptr;
    std::vector<cl_mem> buffers_;
};

// This project's stack: the library compiles the source to SPIR-V, and the
// Level Zero driver (libze_cuda.so unless ZE_ENABLE_ALT_DRIVERS says
// otherwise) builds it with the same options.
class OurSide : public Side {
public:
    OurSide(bench::ZeSetup &ze, const Case &c, const std::string &options) : ze_(ze), case_(c) {
        const std::string text = c.source();
        void *spirv = nullptr;
        size_t size = 0;
        char *log = nullptr;
        const Clock::time_point start = Clock::now();
        if (imex_l0_compile_opencl_c(text.c_str(), options.c_str(), 0, nullptr, &spirv, &size,
                                     &log) != imex_l0_success) {
            std::string message = "the compiler did not build " + c.name + ":\n" + (log ? log : "");
            imex_l0_free(log);
            throw NotBuilt(message);
        }
        imex_l0_free(log);
        ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
        desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
        desc.inputSize = size;
        desc.pInputModule = static_cast<const uint8_t *>(spirv);
        desc.pBuildFlags = options.c_str();
        ze_module_build_log_handle_t buildLog = nullptr;
        const ze_result_t built = zeModuleCreate(ze.context, ze.device, &desc, &module_, &buildLog);
        imex_l0_free(spirv);
        if (built != ZE_RESULT_SUCCESS) {
            size_t length = 0;
            zeModuleBuildLogGetString(buildLog, &length, nullptr);
            std::string text(length, '\0');
            zeModuleBuildLogGetString(buildLog, &length, text.data());
            zeModuleBuildLogDestroy(buildLog);
            throw NotBuilt("zeModuleCreate did not build " + c.name + ":\n" + text);
        }
        zeModuleBuildLogDestroy(buildLog);
        ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
        kd.pKernelName = c.kernel.c_str();
        if (zeKernelCreate(module_, &kd, &kernel_) != ZE_RESULT_SUCCESS)
            throw NotBuilt("the module of " + c.name + " has no kernel " + c.kernel);
        buildSeconds = since(start);
        if (zeKernelSetGroupSize(kernel_, uint32_t(c.local[0]), uint32_t(c.local[1]),
                                 uint32_t(c.local[2])) != ZE_RESULT_SUCCESS)
            throw NotBuilt("the driver refuses the group size of " + c.name +
                           " for its kernel (its reqd_work_group_size?)");
        ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        for (const bench::suite::Buffer &b : c.buffers) {
            void *p = nullptr;
            BENCH_ZE(zeMemAllocDevice(ze.context, &dd, b.init.size(), 0, ze.device, &p));
            BENCH_ZE(zeCommandListAppendMemoryCopy(ze.list, p, b.init.data(), b.init.size(),
                                                   nullptr, 0, nullptr));
            buffers_.push_back(p);
        }
        ze.syncList();
        for (uint32_t i = 0; i < c.args.size(); ++i) {
            const bench::suite::Arg &a = c.args[i];
            if (a.buffer >= 0)
                BENCH_ZE(zeKernelSetArgumentValue(kernel_, i, sizeof(void *), &buffers_[a.buffer]));
            else if (a.localBytes > 0)
                BENCH_ZE(zeKernelSetArgumentValue(kernel_, i, a.localBytes, nullptr));
            else
                BENCH_ZE(zeKernelSetArgumentValue(kernel_, i, a.value.size(), a.value.data()));
        }
        ze_event_pool_desc_t pd = {
            ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
            ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, 1};
        BENCH_ZE(zeEventPoolCreate(ze.context, &pd, 1, &ze.device, &pool_));
        ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                              ZE_EVENT_SCOPE_FLAG_HOST};
        BENCH_ZE(zeEventCreate(pool_, &ed, &done_));
    }
    ~OurSide() override {
        if (done_)
            zeEventDestroy(done_);
        if (pool_)
            zeEventPoolDestroy(pool_);
        for (void *p : buffers_)
            zeMemFree(ze_.context, p);
        if (kernel_)
            zeKernelDestroy(kernel_);
        if (module_)
            zeModuleDestroy(module_);
    }
    double launch() override {
        const ze_group_count_t groups = {uint32_t(case_.global[0] / case_.local[0]),
                                         uint32_t(case_.global[1] / case_.local[1]),
                                         uint32_t(case_.global[2] / case_.local[2])};
        BENCH_ZE(zeCommandListAppendLaunchKernel(ze_.list, kernel_, &groups, done_, 0, nullptr));
        BENCH_ZE(zeEventHostSynchronize(done_, UINT64_MAX));
        ze_kernel_timestamp_result_t t = {};
        BENCH_ZE(zeEventQueryKernelTimestamp(done_, &t));
        BENCH_ZE(zeEventHostReset(done_));
        // The driver's timestamps are nanoseconds.
        return double(t.global.kernelEnd - t.global.kernelStart) * 1e-9;
    }
    std::vector<uint8_t> output(size_t index) override {
        std::vector<uint8_t> bytes(case_.buffers[index].init.size());
        BENCH_ZE(zeCommandListAppendMemoryCopy(ze_.list, bytes.data(), buffers_[index],
                                               bytes.size(), nullptr, 0, nullptr));
        ze_.syncList();
        return bytes;
    }

private:
    bench::ZeSetup &ze_;
    const Case &case_;
    ze_module_handle_t module_ = nullptr;
    ze_kernel_handle_t kernel_ = nullptr;
    std::vector<void *> buffers_;
    ze_event_pool_handle_t pool_ = nullptr;
    ze_event_handle_t done_ = nullptr;
};

// One side's turn in a case's timing: kTurn launches, each waited for and
// timed by the side's own timers; the median of their device times, and the
// host's CPU time per launch (the launch and its wait). The two sides take
// turns (bench::pairedTimes), so that the GPU's clocks and whatever else
// drifts while a case is timed fall on both alike; timed one after the other
// (every repetition of ours, then every one of the platform's), two runs of
// the same case differed twice as much (benchmarks/README.md).
constexpr int kTurn = 8;
bench::BatchTimes turn(Side &side) {
    std::array<double, kTurn> device{};
    const double cpu0 = bench::threadCpuSeconds();
    for (double &t : device)
        t = side.launch();
    const double cpu1 = bench::threadCpuSeconds();
    std::nth_element(device.begin(), device.begin() + kTurn / 2, device.end());
    return {device[kTurn / 2], (cpu1 - cpu0) / kTurn};
}

void printDifference(const char *against, const std::string &label, size_t index,
                     const bench::suite::Difference &d) {
    std::printf("outputs %-28s buffer %zu against %-9s: %.4f%% of %zu elements differ, by %.3g "
                "of the largest magnitude at most\n",
                label.c_str(), index, against,
                d.count ? 100.0 * double(d.differ) / double(d.count) : 0.0, d.count,
                d.largestScaled);
}

// At most kSampled elements of a buffer, evenly spaced: what a run keeps of
// its outputs for another run to compare with (on another machine).
constexpr size_t kSampled = 16384;
std::vector<uint8_t> sample(const std::vector<uint8_t> &bytes, size_t elementSize) {
    const size_t n = bytes.size() / elementSize, stride = std::max<size_t>(1, n / kSampled);
    std::vector<uint8_t> kept;
    for (size_t i = 0; i < n && kept.size() < kSampled * elementSize; i += stride)
        kept.insert(kept.end(), bytes.begin() + long(i * elementSize),
                    bytes.begin() + long((i + 1) * elementSize));
    return kept;
}

// After the first launch of both sides: every buffer of ours against the
// platform's; the buffers the kernel wrote, sampled, written to the
// directory BENCH_SAVE_OUTPUTS names, or compared with those of an earlier
// run in BENCH_REFERENCE_OUTPUTS (another driver's: the CPU driver's
// against the GPU driver's).
// theirs may be null (run-and-compare, where the platform did not build it).
void compareOutputs(const Case &c, Side &ours, Side *theirs, const std::string &label) {
    const char *save = std::getenv("BENCH_SAVE_OUTPUTS");
    const char *reference = std::getenv("BENCH_REFERENCE_OUTPUTS");
    for (size_t b = 0; b < c.buffers.size(); ++b) {
        const bench::suite::Buffer &buffer = c.buffers[b];
        const std::vector<uint8_t> x = ours.output(b);
        if (theirs)
            printDifference("OpenCL", label, b,
                            bench::suite::compare(buffer, x, theirs->output(b)));
        if (x == buffer.init)
            continue;
        const std::vector<uint8_t> kept = sample(x, bench::suite::elementSize(buffer.element));
        const std::string file = label + "." + std::to_string(b) + ".bin";
        if (save)
            std::ofstream(std::string(save) + "/" + file, std::ios::binary)
                .write(reinterpret_cast<const char *>(kept.data()), std::streamsize(kept.size()));
        if (reference) {
            std::ifstream in(std::string(reference) + "/" + file, std::ios::binary);
            const std::vector<uint8_t> y((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
            if (y.size() == kept.size())
                printDifference("reference", label, b, bench::suite::compare(buffer, kept, y));
            else
                std::printf("outputs %-28s buffer %zu: no reference\n", label.c_str(), b);
        }
    }
}

// The suites to run: BENCH_KERNEL_SUITE, files separated by ':', or this
// project's kernels (kernels/math/cases.txt and the builtins' families,
// builtins.txt); only the case named `only` if not empty.
std::vector<Case> suiteCases(const std::string &only) {
    const char *given = std::getenv("BENCH_KERNEL_SUITE");
    std::string list = given ? given
                             : IMEX_BENCH_MATH_KERNELS_DIR "/cases.txt:" IMEX_BENCH_MATH_KERNELS_DIR
                                                           "/builtins.txt";
    std::vector<Case> all;
    size_t begin = 0;
    while (begin <= list.size()) {
        const size_t end = std::min(list.find(':', begin), list.size());
        if (end > begin)
            for (Case &c : bench::suite::readSuite(list.substr(begin, end - begin), only))
                all.push_back(std::move(c));
        begin = end + 1;
    }
    return all;
}

// Run-and-compare of one case (BENCH_COMPARE_ONLY): each side built and
// launched once, as built by default, the outputs compared; without the
// platform (null: none of that name) ours alone. Every step is
// announced on stdout before it starts, so that a process that dies or
// hangs tells where.
int compareOnly(bench::ZeSetup &ze, const bench::OpenClQueue *platform, const Case &c) {
    const std::string label = c.name + "_plain";
    std::unique_ptr<Side> ours, theirs;
    try {
        ours = std::make_unique<OurSide>(ze, c, c.options);
    } catch (const NotBuilt &e) {
        std::printf("not built: ours: %s\n", e.what());
    }
    try {
        if (platform)
            theirs = std::make_unique<OpenClSide>(*platform, c, c.options, "plain");
    } catch (const NotBuilt &e) {
        std::printf("not built: OpenCL: %s\n", e.what());
    }
    if (theirs) {
        std::printf("launch OpenCL\n");
        std::fflush(stdout);
        theirs->launch();
    }
    if (ours) {
        std::printf("launch ours\n");
        std::fflush(stdout);
        ours->launch();
        compareOutputs(c, *ours, theirs.get(), label);
    }
    std::printf("ran %s\n", label.c_str());
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    bench::useBuiltDriver();
    // Every build compiles: cases sharing a source would otherwise find our
    // compiler's in-memory cache filled by the first (CUDA's cache of
    // compiled programs is the run's CUDA_CACHE_DISABLE).
    setenv("IMEX_L0_COMPILER_CACHE_ENTRIES", "0", 0);
    const char *platform = std::getenv("BENCH_OPENCL_PLATFORM");
    const char *only = std::getenv("BENCH_COMPARE_ONLY");
    // The first platform whose name contains BENCH_OPENCL_PLATFORM (NVIDIA's by
    // default), its first device.
    cl_device_id device = bench::openclDevice(platform ? platform : "NVIDIA");
    if (device == nullptr && !only) {
        std::printf("skipped: no OpenCL platform named %s (on an NVIDIA GPU: libnvidia-opencl.so.1 "
                    "registered in /etc/OpenCL/vendors)\n",
                    platform ? platform : "NVIDIA");
        return 0;
    }
    static std::vector<Case> all;
    try {
        all = suiteCases(only ? only : "");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    static bench::ZeSetup ze;
    // One context and profiling queue for every case (a context per case
    // runs out of resources after some dozens on NVIDIA's).
    static std::unique_ptr<bench::OpenClQueue> opencl =
        device ? std::make_unique<bench::OpenClQueue>(device, CL_QUEUE_PROFILING_ENABLE) : nullptr;
    if (only) {
        if (all.empty()) {
            std::fprintf(stderr, "no case named %s in the suite\n", only);
            return 1;
        }
        return compareOnly(ze, opencl.get(), all.front());
    }
    static std::vector<std::unique_ptr<Side>> sides;
    std::vector<bench::Comparison> comparisons;
    double buildRatios = 0;
    int built = 0, notBuilt = 0;
    for (const Case &c : all)
        for (const std::string variant : {"", "-cl-fast-relaxed-math"}) {
            const std::string tag = variant.empty() ? "plain" : "fast";
            const std::string label = c.name + "_" + tag, options = c.options + " " + variant;
            std::unique_ptr<Side> ours, theirs;
            try {
                ours = std::make_unique<OurSide>(ze, c, options);
                theirs = std::make_unique<OpenClSide>(*opencl, c, options, tag);
            } catch (const NotBuilt &e) {
                std::printf("not built: %s\n", e.what());
                ++notBuilt;
                continue;
            }
            std::printf("build %-28s ours %8.2f ms, OpenCL %8.2f ms: %.3fx\n", label.c_str(),
                        ours->buildSeconds * 1e3, theirs->buildSeconds * 1e3,
                        ours->buildSeconds / theirs->buildSeconds);
            buildRatios += std::log(ours->buildSeconds / theirs->buildSeconds);
            ++built;
            ours->launch();
            theirs->launch();
            compareOutputs(c, *ours, theirs.get(), label);
            const std::string oursName = "Ours_" + label, theirName = "OpenCL_" + label;
            Side *o = ours.get(), *t = theirs.get();
            benchmark::RegisterBenchmark(oursName.c_str(),
                                         [o, t](benchmark::State &state) {
                                             bench::pairedTimes(
                                                 state, [o] { return turn(*o); },
                                                 [t] { return turn(*t); });
                                         })
                ->UseRealTime()
                ->Unit(benchmark::kMicrosecond);
            bench::Comparison compared =
                bench::paired(oursName, theirName, 1.10, bench::Metric::realTime);
            compared.group = tag;
            comparisons.push_back(compared);
            sides.push_back(std::move(ours));
            sides.push_back(std::move(theirs));
        }
    std::printf("built %d cases (%d not), build time geomean %.3fx the OpenCL platform's\n", built,
                notBuilt, built ? std::exp(buildRatios / built) : 0.0);
    // The builds leave the GPU idle long enough to lower its clocks, and
    // each case's first timings are ours: every side runs, in turn, for a
    // second first, so that both sides are timed at the clocks of a busy GPU.
    const Clock::time_point warming = Clock::now();
    while (!sides.empty() && since(warming) < 1.0)
        for (const auto &side : sides)
            side->launch();
    return bench::runWithSummary(argc, argv, comparisons);
}
