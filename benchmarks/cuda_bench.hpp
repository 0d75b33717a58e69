// What the benchmarks that compare with the CUDA driver directly share
// (bench_cuda_launch, bench_cuda_copy, bench_cuda_peer): the driver API,
// loaded and initialized, where the GPUs a program needs are.
#pragma once

#include "cuda_api.hpp"

#include <cstdio>
#include <string>

namespace bench {

// The CUDA driver API, initialized, where at least `gpus` NVIDIA GPUs are;
// otherwise prints that the program skipped, and why, and returns nullptr.
inline const ze_cuda::CudaApi *cudaWithGpus(int gpus) {
    std::string why;
    const ze_cuda::CudaApi *api = ze_cuda::loadCudaApi(&why);
    int count = 0;
    if (api != nullptr && api->cuInit(0) == ze_cuda::CUDA_SUCCESS &&
        api->cuDeviceGetCount(&count) == ze_cuda::CUDA_SUCCESS && count >= gpus)
        return api;
    // The words the GPU tests skip with (driver/cuda/tests/CMakeLists.txt).
    const std::string needed = gpus == 1   ? "no NVIDIA GPU"
                               : gpus == 2 ? "fewer than two NVIDIA GPUs"
                                           : "fewer than " + std::to_string(gpus) + " NVIDIA GPUs";
    std::printf("skipped: %s%s%s\n", needed.c_str(), why.empty() ? "" : ": ", why.c_str());
    return nullptr;
}

} // namespace bench
