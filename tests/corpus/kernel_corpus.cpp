// kernel_corpus: how many of a set of real OpenCL C files each pipeline
// accepts, side by side. Not a test (the files come from other projects and
// are not in this repository); docs/compiler.md has the numbers it printed.
//
//   kernel_corpus [-Dname=value -O3 ...] file.cl...
//
// For every file, with "-I <its directory>" and the given options:
//   naive  clang-15 -O2 -emit-llvm | llvm-spirv-15, as two processes;
//   pocl   clBuildProgram from source on the first OpenCL device;
//   ours   imex_l0_compile_opencl_c, then zeModuleCreate and zeKernelCreate of
//          every kernel on the first Level Zero device (set
//          ZE_ENABLE_ALT_DRIVERS to run on the project's driver).
// pocl and ours run in a child process each, so a crash is counted, not
// fatal. A line per file, then the totals.
#include "imex_l0_interop.h"

#include <CL/cl.h>
#include <level_zero/ze_api.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

enum Outcome { accepted = 0, refused = 1, moduleFailed = 2, kernelFailed = 3, crashed = 4 };
// A child's exit code when its pipeline has no device: the run stops.
constexpr int kNoDevice = 5;
const char *const kNames[] = {"ok", "refused", "module", "kernel", "CRASH"};

std::string readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string directoryOf(const std::string &path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

// Runs fn in a child; its exit code is the outcome, a signal is a crash.
Outcome inChild(const std::function<Outcome()> &fn) {
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0)
        _exit(fn());
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == kNoDevice) {
        std::fprintf(stderr, "kernel_corpus: no OpenCL or Level Zero device (for the project's "
                             "driver, set ZE_ENABLE_ALT_DRIVERS)\n");
        std::exit(2);
    }
    if (WIFSIGNALED(status))
        return crashed;
    return WEXITSTATUS(status) <= kernelFailed ? Outcome(WEXITSTATUS(status)) : crashed;
}

Outcome naive(const std::string &file, const std::string &options) {
    char bc[] = "/tmp/kernel_corpus_XXXXXX";
    int fd = mkstemp(bc);
    if (fd < 0)
        return crashed;
    close(fd);
    std::string command =
        "clang-15 -cl-std=CL1.2 -target spir64-unknown-unknown -Xclang "
        "-no-opaque-pointers -Xclang -finclude-default-header -O2 -emit-llvm -c " +
        options + " '" + file + "' -o " + bc + " 2>/dev/null && llvm-spirv-15 " +
        "--spirv-max-version=1.2 " + bc + " -o " + bc + ".spv 2>/dev/null";
    int status = std::system(command.c_str());
    std::remove(bc);
    std::remove((std::string(bc) + ".spv").c_str());
    if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) >= 128))
        return crashed;
    return status == 0 ? accepted : refused;
}

Outcome pocl(const std::string &source, const std::string &options) {
    cl_platform_id platform;
    cl_device_id device;
    if (clGetPlatformIDs(1, &platform, nullptr) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS)
        return Outcome(kNoDevice);
    cl_int err;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    const char *text = source.c_str();
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
    if (clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS)
        return refused;
    // PoCL compiles a kernel when it is created: create every one.
    cl_uint n = 0;
    if (clCreateKernelsInProgram(program, 0, nullptr, &n) != CL_SUCCESS)
        return kernelFailed;
    std::vector<cl_kernel> kernels(n);
    return clCreateKernelsInProgram(program, n, kernels.data(), nullptr) == CL_SUCCESS
               ? accepted
               : kernelFailed;
}

Outcome ours(const std::string &source, const std::string &options) {
    void *spirv = nullptr;
    size_t size = 0;
    char *log = nullptr;
    if (imex_l0_compile_opencl_c(source.c_str(), options.c_str(), 0, nullptr, &spirv, &size,
                                 &log) != imex_l0_success)
        return refused;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    ze_context_handle_t context;
    uint32_t count = 1;
    ze_context_desc_t contextDesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    if (zeInit(0) != ZE_RESULT_SUCCESS || zeDriverGet(&count, &driver) != ZE_RESULT_SUCCESS ||
        zeDeviceGet(driver, &count, &device) != ZE_RESULT_SUCCESS ||
        zeContextCreate(driver, &contextDesc, &context) != ZE_RESULT_SUCCESS)
        return Outcome(kNoDevice);
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = size;
    desc.pInputModule = static_cast<const uint8_t *>(spirv);
    desc.pBuildFlags = "";
    ze_module_handle_t module;
    if (zeModuleCreate(context, device, &desc, &module, nullptr) != ZE_RESULT_SUCCESS)
        return moduleFailed;
    uint32_t n = 0;
    zeModuleGetKernelNames(module, &n, nullptr);
    std::vector<const char *> names(n);
    zeModuleGetKernelNames(module, &n, names.data());
    for (const char *name : names) {
        ze_kernel_desc_t kernelDesc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
        ze_kernel_handle_t kernel;
        if (zeKernelCreate(module, &kernelDesc, &kernel) != ZE_RESULT_SUCCESS)
            return kernelFailed;
    }
    return accepted;
}

} // namespace

int main(int argc, char **argv) {
    std::string extraOptions;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        if (argv[i][0] == '-')
            extraOptions += std::string(" ") + argv[i];
        else
            files.push_back(argv[i]);
    }
    int totals[3][5] = {};
    int oursMissing = 0;
    for (const std::string &file : files) {
        const std::string options = "-I " + directoryOf(file) + extraOptions;
        const std::string source = readFile(file);
        Outcome a = naive(file, options);
        Outcome b = inChild([&] { return pocl(source, options); });
        Outcome c = inChild([&] { return ours(source, options); });
        ++totals[0][a];
        ++totals[1][b];
        ++totals[2][c];
        if (b == accepted && c != accepted)
            ++oursMissing;
        std::printf("%-8s %-8s %-8s %s\n", kNames[a], kNames[b], kNames[c], file.c_str());
    }
    std::printf("\n%-6s", "");
    for (const char *name : kNames)
        std::printf(" %8s", name);
    const char *const pipelines[] = {"naive", "pocl", "ours"};
    for (int p = 0; p < 3; ++p) {
        std::printf("\n%-6s", pipelines[p]);
        for (int o = 0; o < 5; ++o)
            std::printf(" %8d", totals[p][o]);
    }
    std::printf("\n%zu files; PoCL accepts and ours does not: %d\n", files.size(), oursMissing);
    return 0;
}
