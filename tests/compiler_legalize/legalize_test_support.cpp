#include "legalize_test_support.hpp"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace legalize_test {
namespace {

std::string readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A private directory for one clang run, removed with its files.
struct TempDir {
    TempDir() {
        char pattern[] = "/tmp/imex_l0_legalize_XXXXXX";
        const char *made = mkdtemp(pattern);
        path = made ? made : "";
    }
    ~TempDir() {
        if (!path.empty())
            std::system(("rm -rf '" + path + "'").c_str());
    }
    std::string path;
};

} // namespace

std::unique_ptr<llvm::Module> compileOpenCL(llvm::LLVMContext &context, const std::string &source,
                                            unsigned optLevel, bool clangPasses, std::string *log) {
    TempDir dir;
    if (dir.path.empty()) {
        *log = "mkdtemp failed";
        return nullptr;
    }
    const std::string cl = dir.path + "/kernel.cl";
    const std::string bc = dir.path + "/kernel.bc";
    const std::string messages = dir.path + "/clang.log";
    std::ofstream(cl) << source;
    std::string command = std::string("'") + IMEX_L0_TEST_CLANG +
                          "' -cc1 -triple spir64-unknown-unknown -no-opaque-pointers"
                          " -fdeclare-opencl-builtins -finclude-default-header -O" +
                          std::to_string(optLevel) + (clangPasses ? "" : " -disable-llvm-passes") +
                          " -emit-llvm-bc -o '" + bc + "' '" + cl + "' 2> '" + messages + "'";
    if (std::system(command.c_str()) != 0) {
        *log = readFile(messages);
        return nullptr;
    }
    auto buffer = llvm::MemoryBuffer::getFile(bc);
    if (!buffer) {
        *log = "cannot read " + bc;
        return nullptr;
    }
    auto module = llvm::parseBitcodeFile(**buffer, context);
    if (!module) {
        *log = llvm::toString(module.takeError());
        return nullptr;
    }
    return std::move(*module);
}

std::unique_ptr<llvm::Module> parseIR(llvm::LLVMContext &context, const std::string &text,
                                      std::string *log) {
    llvm::SMDiagnostic diagnostic;
    auto module = llvm::parseIR(llvm::MemoryBufferRef(text, "test.ll"), diagnostic, context);
    llvm::raw_string_ostream out(*log);
    if (!module) {
        diagnostic.print("test.ll", out);
        return nullptr;
    }
    if (llvm::verifyModule(*module, &out))
        return nullptr;
    return module;
}

bool translate(llvm::Module &module, std::vector<uint32_t> *spirv, std::string *error) {
    SPIRV::TranslatorOpts options(SPIRV::VersionNumber::SPIRV_1_2);
    std::ostringstream out;
    if (!llvm::writeSpirv(&module, options, out, *error))
        return false;
    const std::string bytes = out.str();
    spirv->assign(bytes.size() / 4, 0);
    std::memcpy(spirv->data(), bytes.data(), spirv->size() * 4);
    return true;
}

std::string inChildProcess(const std::function<std::string()> &work) {
    int channel[2];
    if (pipe(channel) != 0)
        return "pipe failed";
    const pid_t child = fork();
    if (child < 0)
        return "fork failed";
    if (child == 0) {
        close(channel[0]);
        dup2(channel[1], STDERR_FILENO);
        const std::string result = work();
        const char marker[] = "\nRESULT:";
        (void)!write(channel[1], marker, sizeof marker - 1);
        (void)!write(channel[1], result.data(), result.size());
        _exit(0);
    }
    close(channel[1]);
    std::string output;
    char buffer[4096];
    ssize_t got;
    while ((got = read(channel[0], buffer, sizeof buffer)) > 0)
        output.append(buffer, static_cast<size_t>(got));
    close(channel[0]);
    int status = 0;
    waitpid(child, &status, 0);
    const size_t result = output.rfind("\nRESULT:");
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && result != std::string::npos)
        return output.substr(result + 8);
    return "child exited with " +
           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)) + "\n" +
           output;
}

unsigned countInstructions(const llvm::Module &module, const std::string &opcodeName) {
    unsigned count = 0;
    for (const llvm::Function &function : module)
        for (const llvm::Instruction &instruction : llvm::instructions(function))
            count += opcodeName == instruction.getOpcodeName();
    return count;
}

std::vector<int32_t> testInput(size_t count, uint32_t seed) {
    std::vector<int32_t> values(count);
    uint32_t state = seed * 2654435761u + 1;
    for (size_t i = 0; i < count; ++i) {
        state = state * 1664525u + 1013904223u;
        const int32_t magnitude = static_cast<int32_t>((state >> 8) % (i % 3 == 0 ? 50 : 100000));
        values[i] = (i % 7 == 0) ? 0 : ((state & 1) ? -magnitude : magnitude);
    }
    return values;
}

// --- Level Zero -----------------------------------------------------------

Device::Device() {
    if (zeInit(0) != ZE_RESULT_SUCCESS) {
        unavailable_ = "zeInit failed (is ZE_ENABLE_ALT_DRIVERS set to the project's driver?)";
        return;
    }
    uint32_t count = 1;
    if (zeDriverGet(&count, &driver_) != ZE_RESULT_SUCCESS || count == 0) {
        unavailable_ = "no Level Zero driver";
        return;
    }
    count = 1;
    if (zeDeviceGet(driver_, &count, &device_) != ZE_RESULT_SUCCESS || count == 0) {
        unavailable_ = "no Level Zero device";
        return;
    }
    ze_context_desc_t contextDesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    if (zeContextCreate(driver_, &contextDesc, &context_) != ZE_RESULT_SUCCESS) {
        unavailable_ = "zeContextCreate failed";
        return;
    }
    ze_command_queue_desc_t queueDesc = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0, ZE_COMMAND_QUEUE_MODE_DEFAULT,
        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    if (zeCommandQueueCreate(context_, device_, &queueDesc, &queue_) != ZE_RESULT_SUCCESS)
        unavailable_ = "zeCommandQueueCreate failed";
}

Device::~Device() {
    if (queue_)
        zeCommandQueueDestroy(queue_);
    if (context_)
        zeContextDestroy(context_);
}

std::vector<int32_t> Device::run(const std::vector<uint32_t> &spirv, const char *kernelName,
                                 const std::vector<int32_t> &in,
                                 const std::vector<int32_t> &outInitial, int32_t n,
                                 uint32_t globalSize, std::string *error) {
    std::vector<int32_t> result;
    ze_module_handle_t module = nullptr;
    ze_module_build_log_handle_t buildLog = nullptr;
    ze_kernel_handle_t kernel = nullptr;
    ze_command_list_handle_t list = nullptr;
    void *inBuffer = nullptr;
    void *outBuffer = nullptr;
    auto fail = [&](const char *what, ze_result_t code) {
        std::ostringstream text;
        text << what << " failed: 0x" << std::hex << static_cast<uint32_t>(code);
        *error = text.str();
    };

    ze_module_desc_t moduleDesc = {ZE_STRUCTURE_TYPE_MODULE_DESC,
                                   nullptr,
                                   ZE_MODULE_FORMAT_IL_SPIRV,
                                   spirv.size() * sizeof(uint32_t),
                                   reinterpret_cast<const uint8_t *>(spirv.data()),
                                   "",
                                   nullptr};
    ze_host_mem_alloc_desc_t hostDesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
    ze_device_mem_alloc_desc_t deviceDesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0,
                                             0};
    ze_kernel_desc_t kernelDesc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, kernelName};
    ze_command_list_desc_t listDesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
    ze_group_count_t groups = {globalSize, 1, 1};
    ze_result_t code;
    const size_t inBytes = std::max<size_t>(in.size(), 1) * sizeof(int32_t);
    const size_t outCount = outInitial.size();
    const size_t outBytes = std::max<size_t>(outCount, 1) * sizeof(int32_t);

    if ((code = zeModuleCreate(context_, device_, &moduleDesc, &module, &buildLog)) !=
        ZE_RESULT_SUCCESS) {
        size_t size = 0;
        zeModuleBuildLogGetString(buildLog, &size, nullptr);
        std::string text(size, '\0');
        zeModuleBuildLogGetString(buildLog, &size, text.data());
        fail("zeModuleCreate", code);
        *error += ": " + text;
        goto done;
    }
    if ((code = zeKernelCreate(module, &kernelDesc, &kernel)) != ZE_RESULT_SUCCESS) {
        fail("zeKernelCreate", code);
        goto done;
    }
    if ((code = zeMemAllocShared(context_, &deviceDesc, &hostDesc, inBytes, 64, device_,
                                 &inBuffer)) != ZE_RESULT_SUCCESS ||
        (code = zeMemAllocShared(context_, &deviceDesc, &hostDesc, outBytes, 64, device_,
                                 &outBuffer)) != ZE_RESULT_SUCCESS) {
        fail("zeMemAllocShared", code);
        goto done;
    }
    std::memcpy(inBuffer, in.data(), in.size() * sizeof(int32_t));
    std::memcpy(outBuffer, outInitial.data(), outCount * sizeof(int32_t));
    if ((code = zeKernelSetGroupSize(kernel, 1, 1, 1)) != ZE_RESULT_SUCCESS ||
        (code = zeKernelSetArgumentValue(kernel, 0, sizeof(void *), &inBuffer)) !=
            ZE_RESULT_SUCCESS ||
        (code = zeKernelSetArgumentValue(kernel, 1, sizeof(void *), &outBuffer)) !=
            ZE_RESULT_SUCCESS ||
        (code = zeKernelSetArgumentValue(kernel, 2, sizeof(int32_t), &n)) != ZE_RESULT_SUCCESS) {
        fail("setting the kernel arguments", code);
        goto done;
    }
    if ((code = zeCommandListCreate(context_, device_, &listDesc, &list)) != ZE_RESULT_SUCCESS ||
        (code = zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr)) !=
            ZE_RESULT_SUCCESS ||
        (code = zeCommandListClose(list)) != ZE_RESULT_SUCCESS ||
        (code = zeCommandQueueExecuteCommandLists(queue_, 1, &list, nullptr)) !=
            ZE_RESULT_SUCCESS ||
        (code = zeCommandQueueSynchronize(queue_, UINT64_MAX)) != ZE_RESULT_SUCCESS) {
        fail("launching the kernel", code);
        goto done;
    }
    result.assign(static_cast<int32_t *>(outBuffer), static_cast<int32_t *>(outBuffer) + outCount);

done:
    if (list)
        zeCommandListDestroy(list);
    if (inBuffer)
        zeMemFree(context_, inBuffer);
    if (outBuffer)
        zeMemFree(context_, outBuffer);
    if (kernel)
        zeKernelDestroy(kernel);
    if (buildLog)
        zeModuleBuildLogDestroy(buildLog);
    if (module)
        zeModuleDestroy(module);
    return result;
}

} // namespace legalize_test
