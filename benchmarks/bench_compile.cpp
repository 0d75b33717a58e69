// The OpenCL C compiler (libimex_l0_compiler.so) against its baselines, in one
// run, reported as ratios:
//   - cold compile, in-process, of vector add and of a ~300-line kernel, next
//     to the naive subprocess pipeline (clang-15 -finclude-default-header |
//     llvm-spirv-15) and to PoCL's clBuildProgram from source;
//   - memory-cache hit with a 10 KB source (hashing included), next to its
//     cold compile;
//   - disk-cache hit in a fresh process (a child of this one, memory cache
//     disabled), next to the cold compile.
#define CL_TARGET_OPENCL_VERSION 120
#include <benchmark/benchmark.h>

#include <CL/cl.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "compiler_api.h"

extern char **environ;

namespace {

using Clock = std::chrono::steady_clock;

const imex_l0_compiler_api_t &api() {
    static const imex_l0_compiler_api_t *a = imex_l0_compiler_api(IMEX_L0_COMPILER_API_VERSION);
    return *a;
}

// Each call returns a source no cache has seen (a distinct trailing comment).
std::string fresh(const std::string &source) {
    static std::atomic<uint64_t> n{0};
    return source + "\n// variant " + std::to_string(getpid()) + "." + std::to_string(n++) + "\n";
}

bool compile(const std::string &source) {
    void *spirv = nullptr;
    size_t size = 0;
    char *log = nullptr;
    imex_l0_status_t s = api().compile(source.data(), source.size(), "", 0, nullptr, 0, &spirv,
                                       &size, &log);
    std::free(spirv);
    std::free(log);
    return s == imex_l0_success;
}

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

const std::string kVectorAdd = R"(
kernel void vadd(global const float *a, global const float *b, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
)";

// About 300 lines: helpers, loops, local memory, a switch, vectors.
std::string largeKernel() {
    std::string s = "#define TILE 16\n";
    for (int i = 0; i < 24; ++i) {
        std::string n = std::to_string(i);
        s += "float helper" + n + "(float x, int k) {\n"
             "    float acc = x;\n"
             "    for (int j = 0; j < k; ++j) {\n"
             "        if (acc > " + n + ".0f) acc = acc * 0.5f + j;\n"
             "        else acc += sin(acc) * " + n + ".25f;\n"
             "    }\n"
             "    if (k > 100) acc += 1;\n"
             "    else if (k > 10) acc *= 3;\n"
             "    else acc = -acc;\n"
             "    return acc;\n"
             "}\n\n";
    }
    s += R"(
kernel void gemm_tiled(global const float *A, global const float *B, global float *C,
                       int M, int N, int K) {
    local float As[TILE][TILE];
    local float Bs[TILE][TILE];
    int row = get_global_id(1), col = get_global_id(0);
    int lr = get_local_id(1), lc = get_local_id(0);
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[lr][lc] = (row < M && t + lc < K) ? A[row * K + t + lc] : 0.0f;
        Bs[lr][lc] = (col < N && t + lr < K) ? B[(t + lr) * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            acc = mad(As[lr][k], Bs[k][lc], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

kernel void mix(global float4 *v, global const int *sel, volatile global int *count, int k) {
    size_t i = get_global_id(0);
    float4 x = v[i];
    float r = 0;
    switch (sel[i] % 8) {
    case 0: r = helper0(x.x, k) + helper1(x.y, k); break;
    case 1: r = helper2(x.x, k) + helper3(x.y, k); break;
    case 2: r = helper4(x.z, k) + helper5(x.w, k); break;
    case 3: r = helper6(x.x, k) + helper7(x.w, k); break;
    case 4: r = helper8(x.y, k) + helper9(x.z, k) + helper10(x.x, k); break;
    case 5: r = helper11(x.x, k) + helper12(x.y, k) + helper13(x.z, k); break;
    case 6: r = helper14(x.w, k) + helper15(x.x, k) + helper16(x.y, k) + helper17(x.z, k); break;
    default: r = helper18(x.x, k) + helper19(x.y, k) + helper20(x.z, k) + helper21(x.w, k)
                 + helper22(x.x, k) + helper23(x.y, k);
    }
    if (r > 100.0f)
        atomic_inc(count);
    v[i] = x * r + (float4)(i, i + 1, 0, 1);
}
)";
    return s;
}

// 10 KB of realistic source for the cache-hit measurements.
std::string tenKilobytes() {
    std::string s = kVectorAdd;
    int i = 0;
    while (s.size() < 10 * 1024)
        s += "float f" + std::to_string(i) + "(float x) { return x * " + std::to_string(i++) +
             ".5f + 1.0f; } // a helper with a comment\n";
    return s;
}

int run(const std::vector<std::string> &args, const std::vector<std::string> &extraEnv,
        std::string *output) {
    std::vector<char *> argv;
    for (const std::string &a : args)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e)
        env.push_back(*e);
    env.insert(env.end(), extraEnv.begin(), extraEnv.end());
    std::vector<char *> envp;
    for (std::string &e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    std::string outPath = "/tmp/imex_l0_bench_compile_out." + std::to_string(getpid());
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    int status = 0;
    if (rc == 0)
        waitpid(pid, &status, 0);
    if (output) {
        std::ifstream in(outPath);
        output->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    unlink(outPath.c_str());
    return rc == 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The naive pipeline a user would script: the clang driver with the full
// default header, then the translator, as two processes.
double naiveSubprocessSeconds(const std::string &source) {
    std::string dir = "/tmp/imex_l0_bench_naive." + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/k.cl") << source;
    auto t0 = Clock::now();
    int a = run({IMEX_L0_CLANG_PATH, "-cl-std=CL1.2", "-target", "spir64-unknown-unknown",
                 "-Xclang", "-no-opaque-pointers", "-Xclang", "-finclude-default-header", "-O2",
                 "-emit-llvm", "-c", dir + "/k.cl", "-o", dir + "/k.bc"},
                {}, nullptr);
    int b = run({IMEX_L0_LLVM_SPIRV_PATH, "--spirv-max-version=1.2", dir + "/k.bc", "-o",
                 dir + "/k.spv"},
                {}, nullptr);
    auto t1 = Clock::now();
    std::filesystem::remove_all(dir);
    return a == 0 && b == 0 ? seconds(t0, t1) : -1;
}

// PoCL's clBuildProgram from source on its CPU device; -1 without OpenCL.
double poclBuildSeconds(const std::string &source) {
    cl_platform_id platform;
    cl_device_id device;
    if (clGetPlatformIDs(1, &platform, nullptr) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS)
        return -1;
    cl_int err;
    cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS)
        return -1;
    const char *text = source.c_str();
    auto t0 = Clock::now();
    cl_program p = clCreateProgramWithSource(ctx, 1, &text, nullptr, &err);
    err = clBuildProgram(p, 1, &device, "", nullptr, nullptr);
    auto t1 = Clock::now();
    clReleaseProgram(p);
    clReleaseContext(ctx);
    return err == CL_SUCCESS ? seconds(t0, t1) : -1;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? -1 : v[v.size() / 2];
}

void coldCompile(benchmark::State &state, const std::string &source) {
    std::vector<double> inProcess;
    for (auto _ : state) {
        std::string s = fresh(source);
        auto t0 = Clock::now();
        if (!compile(s))
            state.SkipWithError("compile failed");
        inProcess.push_back(seconds(t0, Clock::now()));
    }
    std::vector<double> naive, pocl;
    for (int i = 0; i < 5; ++i) {
        naive.push_back(naiveSubprocessSeconds(fresh(source)));
        pocl.push_back(poclBuildSeconds(fresh(source)));
    }
    double in = median(inProcess), sub = median(naive), cl = median(pocl);
    state.counters["inprocess_ms"] = in * 1e3;
    state.counters["subprocess_ms"] = sub * 1e3;
    state.counters["pocl_build_ms"] = cl * 1e3;
    state.counters["subprocess_over_inprocess"] = sub / in;
    state.counters["pocl_over_inprocess"] = cl / in;
}

void BM_ColdCompile_VectorAdd(benchmark::State &state) { coldCompile(state, kVectorAdd); }
void BM_ColdCompile_300Lines(benchmark::State &state) { coldCompile(state, largeKernel()); }

void BM_MemoryCacheHit_10KB(benchmark::State &state) {
    std::string source = fresh(tenKilobytes());
    auto t0 = Clock::now();
    compile(source);
    double cold = seconds(t0, Clock::now());
    std::vector<double> hits;
    for (auto _ : state) {
        auto a = Clock::now();
        compile(source);
        hits.push_back(seconds(a, Clock::now()));
    }
    double hit = median(hits);
    state.counters["source_bytes"] = double(source.size());
    state.counters["hit_us"] = hit * 1e6;
    state.counters["cold_ms"] = cold * 1e3;
    state.counters["cold_over_hit"] = cold / hit;
}

// The child's side of BM_DiskCacheHit: a fresh process whose memory cache is
// off, so every compile of the same source is answered by the disk.
int diskChild() {
    std::string source = std::getenv("IMEX_L0_BENCH_SOURCE");
    int n = 50;
    std::vector<double> t;
    compile(source); // the entry exists already; this is the first hit
    for (int i = 0; i < n; ++i) {
        auto a = Clock::now();
        if (!compile(source))
            return 1;
        t.push_back(seconds(a, Clock::now()));
    }
    imex_l0_cache_stats_t s{};
    api().get_cache_stats(&s);
    if (s.disk_hits != uint64_t(n) + 1)
        return 2;
    std::printf("%.9f\n", median(t));
    return 0;
}

void BM_DiskCacheHit_FreshProcess(benchmark::State &state) {
    std::string dir = "/tmp/imex_l0_bench_disk." + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    std::string source = fresh(tenKilobytes());
    api().set_cache_dir(dir.c_str(), nullptr);
    auto t0 = Clock::now();
    compile(source); // writes the entry
    double cold = seconds(t0, Clock::now());
    api().set_cache_dir(nullptr, nullptr);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    self[len > 0 ? len : 0] = '\0';
    std::vector<double> hits;
    for (auto _ : state) {
        std::string out;
        int rc = run({self}, {"IMEX_L0_BENCH_CHILD=disk", "IMEX_L0_BENCH_SOURCE=" + source,
                              "IMEX_L0_CACHE_DIR=" + dir, "IMEX_L0_COMPILER_CACHE_ENTRIES=0"},
                     &out);
        if (rc != 0) {
            state.SkipWithError("disk child failed");
            break;
        }
        hits.push_back(std::atof(out.c_str()));
    }
    std::filesystem::remove_all(dir);
    double hit = median(hits);
    state.counters["hit_us"] = hit * 1e6;
    state.counters["cold_ms"] = cold * 1e3;
    state.counters["cold_over_hit"] = cold / hit;
}

} // namespace

BENCHMARK(BM_ColdCompile_VectorAdd)->Unit(benchmark::kMillisecond)->Iterations(50);
BENCHMARK(BM_ColdCompile_300Lines)->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_MemoryCacheHit_10KB)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DiskCacheHit_FreshProcess)->Unit(benchmark::kMillisecond)->Iterations(3);

int main(int argc, char **argv) {
    if (const char *child = std::getenv("IMEX_L0_BENCH_CHILD"))
        return std::strcmp(child, "disk") == 0 ? diskChild() : 2;
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
