// The same OpenCL C source built by NVIDIA's own OpenCL and by this project's
// stack (the library's compiler to SPIR-V, zeModuleCreate on libze_cuda.so:
// the translation to PTX), run on the same GPU in one process: each kernel's
// device time per launch (OpenCL profiling events on one side, Level Zero
// kernel timestamps on the other), medians of repetitions, and the outputs
// of both compared. Every kernel twice: as built by default and with
// -cl-fast-relaxed-math. The kernels are benchmarks/kernels/math/*.cl
// (option pricing, an n-body step, Mandelbrot, a chain of transcendental
// functions, and the memory-bound triad as the control). Without an NVIDIA
// GPU, or without NVIDIA's OpenCL platform registered with the ICD loader
// (as root: echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd),
// it says it skipped.
#define CL_TARGET_OPENCL_VERSION 120
#include "bench_common.hpp"

#include "imex_l0_interop.h"

#include <CL/cl.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <random>

namespace {

// An argument: a buffer of the case (its index), or a scalar's bytes.
struct Arg {
    int buffer = -1;
    std::vector<uint8_t> value;
};
template <class T> Arg scalar(T v) {
    Arg a;
    a.value.resize(sizeof(T));
    std::memcpy(a.value.data(), &v, sizeof(T));
    return a;
}
Arg buffer(int index) {
    Arg a;
    a.buffer = index;
    return a;
}

enum class Element { f32, u32 };

struct Buffer {
    std::vector<uint8_t> init; // its size is the buffer's
    bool output;
    Element element;
};

struct Case {
    std::string name, file, kernel;
    std::vector<Buffer> buffers;
    std::vector<Arg> args;
    size_t global[3], local[3];
};

std::vector<uint8_t> floats(size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> value(lo, hi);
    std::vector<uint8_t> bytes(n * sizeof(float));
    for (size_t i = 0; i < n; ++i) {
        float v = value(random);
        std::memcpy(bytes.data() + i * sizeof(float), &v, sizeof(float));
    }
    return bytes;
}

std::vector<Case> cases() {
    std::vector<Case> all;
    {
        constexpr size_t n = size_t(1) << 22;
        Case c{"black_scholes", "black_scholes.cl", "black_scholes", {}, {},
               {n, 1, 1},       {256, 1, 1}};
        c.buffers = {{floats(n, 5, 30, 1), false, Element::f32},
                     {floats(n, 1, 100, 2), false, Element::f32},
                     {floats(n, 0.25f, 10, 3), false, Element::f32},
                     {std::vector<uint8_t>(n * 4), true, Element::f32},
                     {std::vector<uint8_t>(n * 4), true, Element::f32}};
        c.args = {buffer(0), buffer(1),     buffer(2),    buffer(3),
                  buffer(4), scalar(0.02f), scalar(0.30f)};
        all.push_back(c);
    }
    {
        constexpr uint32_t n = 16384;
        Case c{"nbody", "nbody.cl", "nbody_step", {}, {}, {n, 1, 1}, {256, 1, 1}};
        c.buffers = {{floats(4 * n, -10, 10, 4), false, Element::f32},
                     {floats(4 * n, -1, 1, 5), false, Element::f32},
                     {std::vector<uint8_t>(16 * n), true, Element::f32},
                     {std::vector<uint8_t>(16 * n), true, Element::f32}};
        c.args = {buffer(0), buffer(1),     buffer(2),    buffer(3),
                  scalar(n), scalar(0.01f), scalar(0.01f)};
        all.push_back(c);
    }
    {
        constexpr uint32_t w = 4096, h = 4096;
        Case c{"mandelbrot", "mandelbrot.cl", "mandelbrot", {}, {}, {w, h, 1}, {32, 8, 1}};
        c.buffers = {{std::vector<uint8_t>(size_t(w) * h * 4), true, Element::u32}};
        c.args = {buffer(0),     scalar(w),        scalar(h),   scalar(-2.1f),
                  scalar(-1.5f), scalar(3.0f / h), scalar(256u)};
        all.push_back(c);
    }
    {
        constexpr size_t n = size_t(1) << 24;
        Case c{"transcendental", "transcendental.cl", "transcendental", {}, {},
               {n, 1, 1},        {256, 1, 1}};
        c.buffers = {{floats(n, -4, 4, 6), false, Element::f32},
                     {std::vector<uint8_t>(n * 4), true, Element::f32}};
        c.args = {buffer(0), buffer(1)};
        all.push_back(c);
    }
    {
        constexpr size_t n = size_t(1) << 25;
        Case c{"triad", "triad.cl", "triad", {}, {}, {n, 1, 1}, {256, 1, 1}};
        c.buffers = {{std::vector<uint8_t>(n * 4), true, Element::f32},
                     {floats(n, -1, 1, 7), false, Element::f32},
                     {floats(n, -1, 1, 8), false, Element::f32}};
        c.args = {buffer(0), buffer(1), buffer(2), scalar(3.0f)};
        all.push_back(c);
    }
    return all;
}

std::string source(const Case &c) {
    return bench::readFile(std::string(IMEX_BENCH_MATH_KERNELS_DIR) + "/" + c.file);
}

// A side runs a case: a launch and its device time in seconds; its outputs.
class Side {
public:
    virtual ~Side() = default;
    virtual double launch() = 0;
    virtual std::vector<uint8_t> output(size_t index) = 0;
};

// NVIDIA's OpenCL: the platform whose name says NVIDIA.
cl_device_id nvidiaDevice() {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0)
        return nullptr;
    std::vector<cl_platform_id> platforms(count);
    BENCH_CL(clGetPlatformIDs(count, platforms.data(), nullptr));
    for (cl_platform_id p : platforms) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof(name) - 1, name, nullptr);
        cl_device_id device = nullptr;
        if (std::strstr(name, "NVIDIA") &&
            clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &device, nullptr) == CL_SUCCESS)
            return device;
    }
    return nullptr;
}

class NvidiaSide : public Side {
public:
    NvidiaSide(cl_device_id device, const Case &c, const std::string &options) : case_(c) {
        cl_int e = CL_SUCCESS;
        context_ = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
        BENCH_CL(e);
        queue_ = clCreateCommandQueue(context_, device, CL_QUEUE_PROFILING_ENABLE, &e);
        BENCH_CL(e);
        std::string text = source(c);
        const char *ptr = text.c_str();
        program_ = clCreateProgramWithSource(context_, 1, &ptr, nullptr, &e);
        BENCH_CL(e);
        if (clBuildProgram(program_, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
            char log[8192] = {};
            clGetProgramBuildInfo(program_, device, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log,
                                  nullptr);
            std::fprintf(stderr, "NVIDIA's OpenCL did not build %s:\n%s\n", c.file.c_str(), log);
            std::abort();
        }
        kernel_ = clCreateKernel(program_, c.kernel.c_str(), &e);
        BENCH_CL(e);
        dumpBinary(options);
        for (const Buffer &b : c.buffers) {
            buffers_.push_back(clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                              b.init.size(), const_cast<uint8_t *>(b.init.data()),
                                              &e));
            BENCH_CL(e);
        }
        for (cl_uint i = 0; i < c.args.size(); ++i) {
            const Arg &a = c.args[i];
            if (a.buffer >= 0)
                BENCH_CL(clSetKernelArg(kernel_, i, sizeof(cl_mem), &buffers_[a.buffer]));
            else
                BENCH_CL(clSetKernelArg(kernel_, i, a.value.size(), a.value.data()));
        }
    }
    ~NvidiaSide() override {
        for (cl_mem b : buffers_)
            clReleaseMemObject(b);
        clReleaseKernel(kernel_);
        clReleaseProgram(program_);
        clReleaseCommandQueue(queue_);
        clReleaseContext(context_);
    }
    double launch() override {
        cl_event done = nullptr;
        const cl_uint dims = case_.global[2] > 1 ? 3 : case_.global[1] > 1 ? 2 : 1;
        BENCH_CL(clEnqueueNDRangeKernel(queue_, kernel_, dims, nullptr, case_.global, case_.local,
                                        0, nullptr, &done));
        BENCH_CL(clWaitForEvents(1, &done));
        cl_ulong start = 0, end = 0;
        BENCH_CL(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof(start), &start,
                                         nullptr));
        BENCH_CL(
            clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr));
        clReleaseEvent(done);
        return double(end - start) * 1e-9;
    }
    // BENCH_NVIDIA_PTX_DIR=<dir>: NVIDIA's build of each case (its program
    // binary, PTX) is written there, <case>.<options>.ptx, to compare with
    // the translation's (driver/cuda/tools/ze_cuda_ptx).
    void dumpBinary(const std::string &options) const {
        const char *dir = std::getenv("BENCH_NVIDIA_PTX_DIR");
        if (dir == nullptr)
            return;
        size_t size = 0;
        BENCH_CL(clGetProgramInfo(program_, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr));
        std::vector<unsigned char> binary(size);
        unsigned char *data = binary.data();
        BENCH_CL(clGetProgramInfo(program_, CL_PROGRAM_BINARIES, sizeof(data), &data, nullptr));
        std::string name = std::string(dir) + "/" + case_.name +
                           (options.empty() ? ".plain" : ".fast") + ".ptx";
        std::ofstream(name, std::ios::binary)
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
    cl_context context_ = nullptr;
    cl_command_queue queue_ = nullptr;
    cl_program program_ = nullptr;
    cl_kernel kernel_ = nullptr;
    std::vector<cl_mem> buffers_;
};

// This project's stack: the library compiles the source to SPIR-V, and
// libze_cuda.so builds it with the same options.
class OurSide : public Side {
public:
    OurSide(bench::ZeSetup &ze, const Case &c, const std::string &options) : ze_(ze), case_(c) {
        std::string text = source(c);
        void *spirv = nullptr;
        size_t size = 0;
        char *log = nullptr;
        if (imex_l0_compile_opencl_c(text.c_str(), options.c_str(), 0, nullptr, &spirv, &size,
                                     &log) != imex_l0_success) {
            std::fprintf(stderr, "the compiler did not build %s:\n%s\n", c.file.c_str(),
                         log ? log : "");
            std::abort();
        }
        imex_l0_free(log);
        ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
        desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
        desc.inputSize = size;
        desc.pInputModule = static_cast<const uint8_t *>(spirv);
        desc.pBuildFlags = options.c_str();
        BENCH_ZE(zeModuleCreate(ze.context, ze.device, &desc, &module_, nullptr));
        imex_l0_free(spirv);
        ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
        kd.pKernelName = c.kernel.c_str();
        BENCH_ZE(zeKernelCreate(module_, &kd, &kernel_));
        BENCH_ZE(zeKernelSetGroupSize(kernel_, uint32_t(c.local[0]), uint32_t(c.local[1]),
                                      uint32_t(c.local[2])));
        ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        for (const Buffer &b : c.buffers) {
            void *p = nullptr;
            BENCH_ZE(zeMemAllocDevice(ze.context, &dd, b.init.size(), 0, ze.device, &p));
            BENCH_ZE(zeCommandListAppendMemoryCopy(ze.list, p, b.init.data(), b.init.size(),
                                                   nullptr, 0, nullptr));
            buffers_.push_back(p);
        }
        ze.syncList();
        for (uint32_t i = 0; i < c.args.size(); ++i) {
            const Arg &a = c.args[i];
            if (a.buffer >= 0)
                BENCH_ZE(zeKernelSetArgumentValue(kernel_, i, sizeof(void *), &buffers_[a.buffer]));
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
        zeEventDestroy(done_);
        zeEventPoolDestroy(pool_);
        for (void *p : buffers_)
            zeMemFree(ze_.context, p);
        zeKernelDestroy(kernel_);
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

// How the two sides' outputs differ: the largest relative difference of
// floats (beyond 1e-6 absolute), the share of integers that differ.
void compareOutputs(const Case &c, Side &ours, Side &theirs, const std::string &variant) {
    for (size_t b = 0; b < c.buffers.size(); ++b) {
        if (!c.buffers[b].output)
            continue;
        std::vector<uint8_t> x = ours.output(b), y = theirs.output(b);
        const size_t n = x.size() / 4;
        double worst = 0;
        size_t differ = 0;
        for (size_t i = 0; i < n; ++i) {
            if (c.buffers[b].element == Element::u32) {
                uint32_t u, v;
                std::memcpy(&u, &x[i * 4], 4);
                std::memcpy(&v, &y[i * 4], 4);
                differ += u != v;
            } else {
                float u, v;
                std::memcpy(&u, &x[i * 4], 4);
                std::memcpy(&v, &y[i * 4], 4);
                const double d = std::fabs(double(u) - double(v));
                if (d > 1e-6)
                    worst = std::max(worst, d / std::max(std::fabs(double(v)), 1e-6));
                differ += u != v;
            }
        }
        std::printf(
            "outputs %-15s %-5s buffer %zu: %.4f%% of %zu elements differ, largest relative "
            "difference %.3g\n",
            c.name.c_str(), variant.c_str(), b, 100.0 * double(differ) / double(n), n, worst);
    }
}

} // namespace

int main(int argc, char **argv) {
    bench::useBuiltDriver();
    cl_device_id nvidia = nvidiaDevice();
    if (nvidia == nullptr) {
        std::printf("skipped: no NVIDIA OpenCL platform (an NVIDIA GPU, with libnvidia-opencl.so.1 "
                    "registered in /etc/OpenCL/vendors)\n");
        return 0;
    }
    static bench::ZeSetup ze; // libze_cuda.so's GPU
    static std::vector<Case> all = cases();
    static std::vector<std::unique_ptr<Side>> sides;
    std::vector<bench::Comparison> comparisons;
    for (const Case &c : all)
        for (const std::string variant : {"", "-cl-fast-relaxed-math"}) {
            const std::string tag = variant.empty() ? "plain" : "fast";
            auto ours = std::make_unique<OurSide>(ze, c, variant);
            auto theirs = std::make_unique<NvidiaSide>(nvidia, c, variant);
            ours->launch();
            theirs->launch();
            compareOutputs(c, *ours, *theirs, tag);
            const std::string oursName = "Ours_" + c.name + "_" + tag;
            const std::string theirName = "NvidiaOpenCL_" + c.name + "_" + tag;
            const std::pair<std::string, Side *> registered[] = {{oursName, ours.get()},
                                                                 {theirName, theirs.get()}};
            for (const auto &[name, side] : registered) {
                Side *s = side;
                benchmark::RegisterBenchmark(name.c_str(),
                                             [s](benchmark::State &state) {
                                                 for (auto _ : state)
                                                     state.SetIterationTime(s->launch());
                                             })
                    ->UseManualTime()
                    ->Unit(benchmark::kMicrosecond);
            }
            comparisons.push_back({oursName, theirName, 1.10, bench::Metric::realTime});
            sides.push_back(std::move(ours));
            sides.push_back(std::move(theirs));
        }
    return bench::runWithSummary(argc, argv, comparisons);
}
