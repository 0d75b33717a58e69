// The CUDA backend's modules and kernels (../core/backend.hpp): a module's
// SPIR-V becomes PTX (ptx_translator.cpp), which the CUDA driver compiles
// for the GPU and loads into the device's primary context; a kernel is a
// function of that module. Launches are the queue's (queue.cpp).
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "kernel.hpp"
#include "module.hpp"
#include "ptx_translator.hpp"

#include <algorithm>

namespace ze_driver {

ModuleNative::~ModuleNative() {
    // Nothing here may throw: the context was retained when the module was
    // loaded, so making it current needs no check.
    if (module != nullptr && cuda().cuCtxSetCurrent(context) == ze_cuda::CUDA_SUCCESS)
        cuda().cuModuleUnload(module);
}

namespace {

// Loads `ptx` into the module's device's primary context: the CUDA driver
// compiles it for the GPU, and what it refuses (a resource the GPU lacks)
// is a build failure with its log.
ze_result_t loadPtx(Module &module, const char *ptx, std::vector<KernelInfo> kernels,
                    std::string *log) {
    Device *device = module.device();
    makeCurrent(device);
    char errors[4096] = {};
    int options[] = {ze_cuda::CU_JIT_ERROR_LOG_BUFFER, ze_cuda::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {errors, reinterpret_cast<void *>(sizeof(errors) - 1)};
    ze_cuda::CUresult r =
        cuda().cuModuleLoadDataEx(&module.native().module, ptx, 2, options, values);
    if (r == ze_cuda::CUDA_ERROR_OUT_OF_MEMORY)
        return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
    if (r != ze_cuda::CUDA_SUCCESS) {
        module.native().module = nullptr;
        *log += "the CUDA driver did not load the module's PTX: " + cuda().describe(r) + "\n" +
                errors;
        return ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
    }
    module.native().context = primaryContext(device);
    module.native().ptx = ptx;
    // The translation calls CUDA's vprintf for printf (missing_builtins.hpp).
    module.native().prints = module.native().ptx.find("vprintf") != std::string::npos;
    module.setKernels(std::move(kernels));
    return ZE_RESULT_SUCCESS;
}

} // namespace

// Of the build flags, the translation honours OpenCL's floating-point options
// (math_options.hpp); the others are for a compiler this backend does not run.
ze_result_t backend::buildModule(Module &module, ze_module_format_t format,
                                 const SpirvProgram &inputs, const std::string &flags,
                                 std::string *log) {
    if (format == ZE_MODULE_FORMAT_NATIVE) {
        NativeContents contents;
        std::string reason;
        if (!unpackNative(inputs[0].spirv, inputs[0].size, ze_cuda::ptxSignature(), &contents,
                          &reason)) {
            *log = "invalid native binary: " + reason + "\n";
            return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
        }
        std::string ptx(contents.binary.begin(), contents.binary.end());
        return loadPtx(module, ptx.c_str(), std::move(contents.kernels), log);
    }
    ze_cuda::PtxModule ptx;
    ze_result_t result =
        ze_cuda::translateSpirvToPtx(inputs, &ptx, log, ze_cuda::parseMathOptions(flags));
    if (result != ZE_RESULT_SUCCESS)
        return result;
    return loadPtx(module, ptx.ptx.c_str(), std::move(ptx.kernels), log);
}

// The PTX and the kernels' metadata: the CUDA driver compiles the PTX for
// whichever GPU loads it, and caches what it compiled.
std::vector<uint8_t> backend::nativeBinary(const Module &module) {
    const std::string &ptx = module.native().ptx;
    return packNative(ze_cuda::ptxSignature(), std::vector<uint8_t>(ptx.begin(), ptx.end()),
                      module.kernels());
}

// A program-scope variable is a visible global of the PTX (the translation
// keeps the program's own visible, ptx_translator.hpp).
ze_result_t backend::globalPointer(Module &module, const char *name, size_t *size,
                                   void **pointer) {
    makeCurrent(module.device());
    ze_cuda::CUdeviceptr address = 0;
    ze_cuda::CUresult r = cuda().cuModuleGetGlobal(&address, size, module.native().module, name);
    if (r == ze_cuda::CUDA_ERROR_NOT_FOUND)
        return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
    checkCuda(r);
    *pointer = reinterpret_cast<void *>(address);
    return ZE_RESULT_SUCCESS;
}

size_t backend::initKernel(Kernel &kernel) {
    Module *module = kernel.module();
    KernelNative &native = kernel.native();
    makeCurrent(module->device());
    checkCuda(cuda().cuModuleGetFunction(&native.function, module->native().module,
                                         kernel.info().name.c_str()));
    int threads = 0, shared = 0;
    checkCuda(cuda().cuFuncGetAttribute(&threads, ze_cuda::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                        native.function));
    checkCuda(cuda().cuFuncGetAttribute(&shared, ze_cuda::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                        native.function));
    native.staticShared = static_cast<uint32_t>(shared);
    int dynamicShared = 0;
    checkCuda(cuda().cuFuncGetAttribute(
        &dynamicShared, ze_cuda::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, native.function));
    native.dynamicShared = static_cast<uint32_t>(std::max(dynamicShared, 0));
    ze_cuda::CUdeviceptr placed = 0;
    size_t placedSize = 0;
    const std::string placedName = ze_cuda::sharedVariablesName(kernel.info().name);
    if (cuda().cuModuleGetGlobal(&placed, &placedSize, module->native().module,
                                 placedName.c_str()) == ze_cuda::CUDA_SUCCESS &&
        placedSize == sizeof(native.sharedVariables))
        checkCuda(cuda().cuMemcpyDtoH(&native.sharedVariables, placed, placedSize));
    native.prints = module->native().prints;
    // The most the function's registers allow, within the device's limit.
    return std::min<size_t>(std::max(threads, 1), module->device()->maxGroupSize());
}

void backend::kernelMemory(const Kernel &kernel, uint32_t *local, uint32_t *priv) {
    int bytes = 0;
    cuda().cuFuncGetAttribute(&bytes, ze_cuda::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                              kernel.native().function);
    // The translation's placed variables are the kernel's own too (shared_variables.hpp).
    *local = kernel.native().staticShared + kernel.native().sharedVariables;
    *priv = static_cast<uint32_t>(bytes);
}

} // namespace ze_driver
