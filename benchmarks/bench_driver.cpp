// The Level Zero driver on OpenCL (libze_opencl.so, through the system
// loader) against the same work enqueued directly through OpenCL on PoCL, in
// one process and one run:
//  - host cost per launch of an empty kernel on an immediate list, pipelined
//    (kBatch launches, one host synchronisation) and launch + wait;
//  - STREAM triad bandwidth (a = b + s*c over arrays far larger than the
//    caches), with a plain C++ loop over two std::threads as a third column;
//  - module creation for a ~50-line kernel, cold (build options carry a
//    value never used before, so PoCL's kernel cache cannot answer) and warm
//    (the same module again: PoCL's cache answers).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "bench_common.hpp"
#include "opencl_queue.hpp"

#include <chrono>
#include <cstring>
#include <random>
#include <thread>

namespace {

std::string spirvPath(const char *name) {
    return std::string(IMEX_BENCH_SPIRV_DIR) + "/" + name + ".spv";
}
std::string sourcePath(const char *name) {
    return std::string(IMEX_BENCH_KERNEL_DIR) + "/" + name + ".cl";
}

bench::ZeSetup &ze() {
    static bench::ZeSetup setup;
    return setup;
}

// PoCL's CPU device, a context and an in-order queue without properties, as
// a program using OpenCL directly would create them.
struct ClSetup : bench::OpenClQueue {
    ClSetup() : OpenClQueue(pocl(), 0) {}

    static cl_device_id pocl() {
        cl_device_id device =
            bench::openclDevice("Portable Computing Language", CL_DEVICE_TYPE_CPU);
        if (!device)
            bench::fail("finding the PoCL platform", 0, __FILE__, __LINE__);
        return device;
    }

    // SPIR 1.2 bitcode, as the driver hands PoCL a module after translating
    // its SPIR-V (here: clang's bitcode for spir64, made at build time).
    cl_program buildSpir(const std::string &bitcode, const std::string &options) const {
        const auto *bytes = reinterpret_cast<const unsigned char *>(bitcode.data());
        size_t size = bitcode.size();
        cl_int status = CL_SUCCESS, error = CL_SUCCESS;
        cl_program program =
            clCreateProgramWithBinary(context, 1, &device, &size, &bytes, &status, &error);
        BENCH_CL(error);
        std::string all = "-x spir -spir-std=1.2 " + options;
        BENCH_CL(clBuildProgram(program, 1, &device, all.c_str(), nullptr, nullptr));
        return program;
    }

    cl_program build(const std::string &source, const std::string &options) const {
        const char *text = source.c_str();
        size_t length = source.size();
        cl_int error = CL_SUCCESS;
        cl_program program = clCreateProgramWithSource(context, 1, &text, &length, &error);
        BENCH_CL(error);
        BENCH_CL(clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr));
        return program;
    }
};

ClSetup &cl() {
    static ClSetup setup;
    return setup;
}

// ------------------------------------------------------------ launch cost

struct ZeKernel {
    ze_module_handle_t module;
    ze_kernel_handle_t kernel;
    ZeKernel(const char *file, const char *name) {
        module = ze().createModule(bench::readFile(spirvPath(file)));
        kernel = bench::ZeSetup::createKernel(module, name);
    }
    ~ZeKernel() {
        zeKernelDestroy(kernel);
        zeModuleDestroy(module);
    }
};

struct ClKernel {
    cl_program program;
    cl_kernel kernel;
    ClKernel(const char *file, const char *name) {
        program = cl().build(bench::readFile(sourcePath(file)), "");
        cl_int error = CL_SUCCESS;
        kernel = clCreateKernel(program, name, &error);
        BENCH_CL(error);
    }
    ~ClKernel() {
        clReleaseKernel(kernel);
        clReleaseProgram(program);
    }
};

const ze_group_count_t kOneGroup = {1, 1, 1};
const size_t kOneItem = 1;

void Launch_Pipelined_OpenCL(benchmark::State &state) {
    ClKernel k("empty", "empty");
    cl_command_queue q = cl().queue;
    BENCH_CL(clEnqueueNDRangeKernel(q, k.kernel, 1, nullptr, &kOneItem, &kOneItem, 0, nullptr,
                                    nullptr)); // PoCL compiles the work-group function here
    BENCH_CL(clFinish(q));
    int64_t n = 0;
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state) {
            BENCH_CL(clEnqueueNDRangeKernel(q, k.kernel, 1, nullptr, &kOneItem, &kOneItem, 0, nullptr,
                                            nullptr));
            if (++n % bench::kBatch == 0)
                BENCH_CL(clFinish(q));
        }
    }
    BENCH_CL(clFinish(q));
}

void Launch_Pipelined_L0(benchmark::State &state) {
    ZeKernel k("empty", "empty");
    ze_command_list_handle_t list = ze().list;
    BENCH_ZE(zeCommandListAppendLaunchKernel(list, k.kernel, &kOneGroup, nullptr, 0, nullptr));
    ze().syncList();
    int64_t n = 0;
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state) {
            BENCH_ZE(zeCommandListAppendLaunchKernel(list, k.kernel, &kOneGroup, nullptr, 0, nullptr));
            if (++n % bench::kBatch == 0)
                ze().syncList();
        }
    }
    ze().syncList();
}

void Launch_Sync_OpenCL(benchmark::State &state) {
    ClKernel k("empty", "empty");
    cl_command_queue q = cl().queue;
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state) {
            BENCH_CL(clEnqueueNDRangeKernel(q, k.kernel, 1, nullptr, &kOneItem, &kOneItem, 0, nullptr,
                                            nullptr));
            BENCH_CL(clFinish(q));
        }
    }
}

// Level Zero has no clFinish on an immediate list in the 1.4 API the project
// targets: the launch signals an event, the host waits for it and resets it.
void Launch_Sync_L0(benchmark::State &state) {
    ZeKernel k("empty", "empty");
    ze_command_list_handle_t list = ze().list;
    ze_event_pool_handle_t pool = ze().createEventPool(1);
    ze_event_handle_t done = bench::ZeSetup::createEvent(pool, 0);
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state) {
            BENCH_ZE(zeCommandListAppendLaunchKernel(list, k.kernel, &kOneGroup, done, 0, nullptr));
            BENCH_ZE(zeEventHostSynchronize(done, UINT64_MAX));
            BENCH_ZE(zeEventHostReset(done));
        }
    }
    zeEventDestroy(done);
    zeEventPoolDestroy(pool);
}

// The driver's synchronous immediate list finishes its OpenCL queue inside
// the append: the Level Zero form closest to enqueue + clFinish.
void Launch_SyncList_L0(benchmark::State &state) {
    ZeKernel k("empty", "empty");
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
    ze_command_list_handle_t list = nullptr;
    BENCH_ZE(zeCommandListCreateImmediate(ze().context, ze().device, &desc, &list));
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state)
            BENCH_ZE(zeCommandListAppendLaunchKernel(list, k.kernel, &kOneGroup, nullptr, 0, nullptr));
    }
    zeCommandListDestroy(list);
}

// ---------------------------------------------------------------- triad

constexpr size_t kTriadElements = size_t(1) << 23; // 64 MiB per array of doubles
constexpr size_t kTriadBytes = 3 * kTriadElements * sizeof(double);
// The same work-group size on both sides, so only the layer differs.
constexpr size_t kTriadLocal = 1024;
constexpr double kScalar = 3.0;

void fillInputs(double *a, double *b, double *c) {
    for (size_t i = 0; i < kTriadElements; ++i) {
        a[i] = 0.0;
        b[i] = 1.0;
        c[i] = 2.0;
    }
}

void checkTriad(benchmark::State &state, const double *a) {
    const double expected = 1.0 + kScalar * 2.0;
    if (a[0] != expected || a[kTriadElements / 2] != expected || a[kTriadElements - 1] != expected)
        state.SkipWithError("triad computed a wrong result");
}

void Triad_OpenCL(benchmark::State &state) {
    ClKernel k("triad", "triad");
    cl_context ctx = cl().context;
    auto *a = static_cast<double *>(clSVMAlloc(ctx, CL_MEM_READ_WRITE, kTriadElements * 8, 0));
    auto *b = static_cast<double *>(clSVMAlloc(ctx, CL_MEM_READ_WRITE, kTriadElements * 8, 0));
    auto *c = static_cast<double *>(clSVMAlloc(ctx, CL_MEM_READ_WRITE, kTriadElements * 8, 0));
    if (!a || !b || !c)
        bench::fail("clSVMAlloc", 0, __FILE__, __LINE__);
    // PoCL's CPU device has fine-grained SVM: the host touches it directly.
    fillInputs(a, b, c);
    BENCH_CL(clSetKernelArgSVMPointer(k.kernel, 0, a));
    BENCH_CL(clSetKernelArgSVMPointer(k.kernel, 1, b));
    BENCH_CL(clSetKernelArgSVMPointer(k.kernel, 2, c));
    BENCH_CL(clSetKernelArg(k.kernel, 3, sizeof kScalar, &kScalar));
    cl_command_queue q = cl().queue;
    for (auto _ : state) {
        BENCH_CL(clEnqueueNDRangeKernel(q, k.kernel, 1, nullptr, &kTriadElements, &kTriadLocal, 0,
                                        nullptr, nullptr));
        BENCH_CL(clFinish(q));
    }
    checkTriad(state, a);
    state.SetBytesProcessed(state.iterations() * int64_t(kTriadBytes));
    clSVMFree(ctx, a);
    clSVMFree(ctx, b);
    clSVMFree(ctx, c);
}

void Triad_L0(benchmark::State &state) {
    ZeKernel k("triad", "triad");
    ze_context_handle_t ctx = ze().context;
    ze_device_mem_alloc_desc_t deviceDesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hostDesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    double *arrays[3] = {};
    for (double *&p : arrays)
        BENCH_ZE(zeMemAllocShared(ctx, &deviceDesc, &hostDesc, kTriadElements * 8, 0, ze().device,
                                  reinterpret_cast<void **>(&p)));
    fillInputs(arrays[0], arrays[1], arrays[2]);
    for (uint32_t i = 0; i < 3; ++i)
        BENCH_ZE(zeKernelSetArgumentValue(k.kernel, i, sizeof(double *), &arrays[i]));
    BENCH_ZE(zeKernelSetArgumentValue(k.kernel, 3, sizeof kScalar, &kScalar));
    BENCH_ZE(zeKernelSetGroupSize(k.kernel, kTriadLocal, 1, 1));
    const ze_group_count_t groups = {uint32_t(kTriadElements / kTriadLocal), 1, 1};
    for (auto _ : state) {
        BENCH_ZE(zeCommandListAppendLaunchKernel(ze().list, k.kernel, &groups, nullptr, 0, nullptr));
        ze().syncList();
    }
    checkTriad(state, arrays[0]);
    state.SetBytesProcessed(state.iterations() * int64_t(kTriadBytes));
    for (double *p : arrays)
        zeMemFree(ctx, p);
}

// What the two cores give without any runtime: each of two threads runs the
// loop over its half; the threads are started per pass, as a plain program would.
void Triad_CppThreads(benchmark::State &state) {
    std::vector<double> a(kTriadElements), b(kTriadElements), c(kTriadElements);
    fillInputs(a.data(), b.data(), c.data());
    auto half = [&](size_t begin, size_t end) {
        double *pa = a.data();
        const double *pb = b.data(), *pc = c.data();
        for (size_t i = begin; i < end; ++i)
            pa[i] = pb[i] + kScalar * pc[i];
    };
    for (auto _ : state) {
        std::thread first(half, 0, kTriadElements / 2);
        std::thread second(half, kTriadElements / 2, kTriadElements);
        first.join();
        second.join();
    }
    checkTriad(state, a.data());
    state.SetBytesProcessed(state.iterations() * int64_t(kTriadBytes));
}

// ------------------------------------------------------- module creation

// A value no earlier run used, so a "cold" build option is new to PoCL's
// on-disk cache (POCL_CACHE_DIR is read once per process, so the cache
// cannot be switched per iteration; a new option changes PoCL's cache key).
std::string freshSalt() {
    static uint64_t base = std::random_device()() ^
                           uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    static uint64_t next = 0;
    return "-DIMEX_BENCH_SALT=" + std::to_string(base) + "_" + std::to_string(next++);
}

void ProgramBuild_Cold_OpenCL(benchmark::State &state) {
    std::string source = bench::readFile(sourcePath("stencil"));
    for (auto _ : state) {
        std::string options = freshSalt();
        cl_program program = cl().build(source, options);
        state.PauseTiming();
        clReleaseProgram(program);
        state.ResumeTiming();
    }
}

// imex_l0_add_spirv keeps clang's bitcode next to the SPIR-V it translated.
std::string spirBitcode() {
    return bench::readFile(std::string(IMEX_BENCH_SPIRV_DIR) + "/stencil.bc");
}

void ProgramBuildSpir_Cold_OpenCL(benchmark::State &state) {
    std::string bitcode = spirBitcode();
    for (auto _ : state) {
        std::string options = freshSalt();
        cl_program program = cl().buildSpir(bitcode, options);
        state.PauseTiming();
        clReleaseProgram(program);
        state.ResumeTiming();
    }
}

void ProgramBuildSpir_Warm_OpenCL(benchmark::State &state) {
    std::string bitcode = spirBitcode();
    std::string options = freshSalt();
    clReleaseProgram(cl().buildSpir(bitcode, options)); // fills PoCL's cache
    for (auto _ : state) {
        cl_program program = cl().buildSpir(bitcode, options);
        state.PauseTiming();
        clReleaseProgram(program);
        state.ResumeTiming();
    }
}

void ModuleCreate_Cold_L0(benchmark::State &state) {
    std::string spirv = bench::readFile(spirvPath("stencil"));
    for (auto _ : state) {
        std::string flags = freshSalt();
        ze_module_handle_t module = ze().createModule(spirv, flags.c_str());
        state.PauseTiming();
        zeModuleDestroy(module);
        state.ResumeTiming();
    }
}

void ProgramBuild_Warm_OpenCL(benchmark::State &state) {
    std::string source = bench::readFile(sourcePath("stencil"));
    std::string options = freshSalt();
    clReleaseProgram(cl().build(source, options)); // fills PoCL's cache
    for (auto _ : state) {
        cl_program program = cl().build(source, options);
        state.PauseTiming();
        clReleaseProgram(program);
        state.ResumeTiming();
    }
}

void ModuleCreate_Warm_L0(benchmark::State &state) {
    std::string spirv = bench::readFile(spirvPath("stencil"));
    std::string flags = freshSalt();
    zeModuleDestroy(ze().createModule(spirv, flags.c_str())); // fills PoCL's cache
    for (auto _ : state) {
        ze_module_handle_t module = ze().createModule(spirv, flags.c_str());
        state.PauseTiming();
        zeModuleDestroy(module);
        state.ResumeTiming();
    }
}

} // namespace

BENCHMARK(Launch_Pipelined_OpenCL)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_Pipelined_L0)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_Sync_OpenCL)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_Sync_L0)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_SyncList_L0)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Triad_OpenCL)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(Triad_L0)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(Triad_CppThreads)->UseRealTime()->Unit(benchmark::kMillisecond);
// Building from source runs clang's front end: seconds per cold build, so
// fewer repetitions keep the program's run time short.
BENCHMARK(ProgramBuild_Cold_OpenCL)->UseRealTime()->Unit(benchmark::kMillisecond)->Repetitions(3);
BENCHMARK(ProgramBuildSpir_Cold_OpenCL)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(ModuleCreate_Cold_L0)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(ProgramBuild_Warm_OpenCL)->UseRealTime()->Unit(benchmark::kMillisecond)->Repetitions(3);
BENCHMARK(ProgramBuildSpir_Warm_OpenCL)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(ModuleCreate_Warm_L0)->UseRealTime()->Unit(benchmark::kMillisecond);

int main(int argc, char **argv) {
    using bench::Metric;
    bench::useBuiltDriver();
    return bench::runWithSummary(
        argc, argv,
        {
            {"Launch_Pipelined_L0", "Launch_Pipelined_OpenCL", 1.25, Metric::cpuTime},
            {"Launch_Sync_L0", "Launch_Sync_OpenCL", 1.25, Metric::realTime},
            {"Launch_SyncList_L0", "Launch_Sync_OpenCL", 1.25, Metric::realTime},
            {"Triad_L0", "Triad_OpenCL", 0.95, Metric::realTime, /*higherIsBetter=*/true},
            {"Triad_CppThreads", "Triad_OpenCL", 0, Metric::realTime, /*higherIsBetter=*/true},
            {"ModuleCreate_Cold_L0", "ProgramBuildSpir_Cold_OpenCL", 0},
            {"ModuleCreate_Cold_L0", "ProgramBuild_Cold_OpenCL", 0},
            {"ModuleCreate_Warm_L0", "ProgramBuildSpir_Warm_OpenCL", 0},
            {"ModuleCreate_Warm_L0", "ProgramBuild_Warm_OpenCL", 0},
        });
}
