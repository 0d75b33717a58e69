// ze_cuda_module_cost <kernel.spv> <kernel.cu>: what zeModuleCreate will cost
// on the CUDA backend, side by side in one process with what a CUDA program
// pays for the same kernel compiled at run time:
//   ours:  SPIR-V -> PTX (translateSpirvToPtx)  + cuModuleLoadDataEx (PTX JIT)
//   NVRTC: CUDA C -> PTX (nvrtcCompileProgram)  + cuModuleLoadDataEx (PTX JIT)
// Medians of 21 runs after a first (cold) one, which is printed apart. The
// CUDA driver's JIT cache is off (CUDA_CACHE_DISABLE=1), so every load
// compiles. NVRTC is loaded at run time (libnvrtc.so.13 or libnvrtc.so).
#include "cuda_api.hpp"
#include "ptx_translator.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace ze_cuda;

std::string readFile(const char *path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path);
        std::exit(2);
    }
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The first run's time and the median of the next 21, in milliseconds.
std::pair<double, double> timed(const std::function<void()> &run) {
    auto once = [&] {
        auto start = std::chrono::steady_clock::now();
        run();
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    };
    double first = once();
    std::vector<double> times;
    for (int i = 0; i < 21; ++i)
        times.push_back(once());
    std::nth_element(times.begin(), times.begin() + 10, times.end());
    return {first, times[10]};
}

// NVRTC's entry points used here (nvrtc.h), loaded at run time.
struct Nvrtc {
    using Program = struct NvrtcProgram *;
    int (*create)(Program *, const char *, const char *, int, const char *const *,
                  const char *const *);
    int (*compile)(Program, int, const char *const *);
    int (*ptxSize)(Program, size_t *);
    int (*ptx)(Program, char *);
    int (*destroy)(Program *);
};

bool loadNvrtc(Nvrtc *n) {
    void *lib = dlopen("libnvrtc.so.13", RTLD_NOW);
    if (!lib)
        lib = dlopen("libnvrtc.so", RTLD_NOW);
    if (!lib)
        return false;
    n->create = reinterpret_cast<decltype(n->create)>(dlsym(lib, "nvrtcCreateProgram"));
    n->compile = reinterpret_cast<decltype(n->compile)>(dlsym(lib, "nvrtcCompileProgram"));
    n->ptxSize = reinterpret_cast<decltype(n->ptxSize)>(dlsym(lib, "nvrtcGetPTXSize"));
    n->ptx = reinterpret_cast<decltype(n->ptx)>(dlsym(lib, "nvrtcGetPTX"));
    n->destroy = reinterpret_cast<decltype(n->destroy)>(dlsym(lib, "nvrtcDestroyProgram"));
    return n->create && n->compile && n->ptxSize && n->ptx && n->destroy;
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s <kernel.spv> <kernel.cu>\n", argv[0]);
        return 2;
    }
    setenv("CUDA_CACHE_DISABLE", "1", 1);
    std::string why;
    const CudaApi *cu = loadCudaApi(&why);
    CUdevice device = 0;
    CUcontext context = nullptr;
    if (!cu || cu->cuInit(0) != CUDA_SUCCESS || cu->cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
        cu->cuDevicePrimaryCtxRetain(&context, device) != CUDA_SUCCESS ||
        cu->cuCtxSetCurrent(context) != CUDA_SUCCESS) {
        std::fprintf(stderr, "no NVIDIA GPU: %s\n", why.c_str());
        return 2;
    }
    auto jit = [&](const std::string &ptx) {
        CUmodule module = nullptr;
        if (cu->cuModuleLoadDataEx(&module, ptx.c_str(), 0, nullptr, nullptr) != CUDA_SUCCESS) {
            std::fprintf(stderr, "cuModuleLoadDataEx failed\n");
            std::exit(1);
        }
        cu->cuModuleUnload(module);
    };

    std::string spirv = readFile(argv[1]);
    PtxModule translated;
    auto ours = timed([&] {
        std::string log;
        translated = {};
        if (translateSpirvToPtx(reinterpret_cast<const uint8_t *>(spirv.data()), spirv.size(), {},
                                &translated, &log) != ZE_RESULT_SUCCESS) {
            std::fprintf(stderr, "translation failed:\n%s\n", log.c_str());
            std::exit(1);
        }
    });
    auto oursJit = timed([&] { jit(translated.ptx); });

    Nvrtc nvrtc;
    if (!loadNvrtc(&nvrtc)) {
        std::printf("translate %.2f ms (first %.1f), JIT %.2f ms; NVRTC not found\n", ours.second,
                    ours.first, oursJit.second);
        return 0;
    }
    std::string source = readFile(argv[2]);
    std::string nvrtcPtx;
    auto theirs = timed([&] {
        Nvrtc::Program program = nullptr;
        const char *options[] = {"--gpu-architecture=compute_90"};
        size_t size = 0;
        if (nvrtc.create(&program, source.c_str(), "kernel.cu", 0, nullptr, nullptr) != 0 ||
            nvrtc.compile(program, 1, options) != 0 || nvrtc.ptxSize(program, &size) != 0) {
            std::fprintf(stderr, "NVRTC failed\n");
            std::exit(1);
        }
        nvrtcPtx.assign(size, '\0');
        nvrtc.ptx(program, nvrtcPtx.data());
        nvrtc.destroy(&program);
    });
    auto theirsJit = timed([&] { jit(nvrtcPtx); });

    std::printf("SPIR-V -> PTX (ours): %.2f ms (first %.1f); its PTX JIT: %.2f ms (first %.1f)\n",
                ours.second, ours.first, oursJit.second, oursJit.first);
    std::printf("CUDA C -> PTX (NVRTC): %.2f ms (first %.1f); its PTX JIT: %.2f ms (first %.1f)\n",
                theirs.second, theirs.first, theirsJit.second, theirsJit.first);
    double a = ours.second + oursJit.second, b = theirs.second + theirsJit.second;
    std::printf("module creation, medians: ours %.2f ms, NVRTC %.2f ms, ratio %.2fx\n", a, b, a / b);
    return 0;
}
