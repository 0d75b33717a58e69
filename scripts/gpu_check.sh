#!/usr/bin/env bash
# The CUDA backend on the lent NVIDIA GPU (the `device` tool; no GPU here).
#   bash scripts/gpu_check.sh prepare   here: translates the test kernels to
#       PTX with the project's chain (ze_cuda_ptx), compiles the CUDA C
#       baseline with nvcc, and puts them with ze_cuda_gpu_check into
#       build/gpu (ignored by git: name it in the tool's `carry`); packs the
#       two drivers, the driver tests that run on the GPU and the libraries
#       the device machine lacks (the Level Zero loader, LLVM 15,
#       LLVMSPIRVLib, z3) into build/gpu/stack.tar.xz.
#   bash scripts/gpu_check.sh run       there: runs the checks and the
#       measurements (results against the host, triad bandwidth against
#       nvcc's, cuLaunchKernel's host cost), then the driver tests through
#       the system loader with libze_cuda.so beside libze_opencl.so, and
#       zeModuleCreate's cost (SPIR-V -> PTX + JIT) against NVRTC's.
# The device machine has no LLVM 15, libclc or Level Zero loader, so
# everything it runs is made here.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${IMEX_L0_BUILD_DIR:-build}"
OUT_DIR="$BUILD_DIR/gpu"
case "${1:-}" in
prepare)
    cmake --build "$BUILD_DIR" --target ze_cuda_ptx ze_cuda_gpu_check ze_cuda ze_opencl \
        ze_cuda_two_drivers_test ze_cuda_usm_test ze_cuda_lists_test ze_cuda_module_cost
    mkdir -p "$OUT_DIR"
    "$BUILD_DIR/driver/cuda/ze_cuda_ptx" "$BUILD_DIR/tests/gpu_runtime/spirv/gpu_kernels.spv" \
        "$OUT_DIR/gpu_kernels.ptx"
    "$BUILD_DIR/driver/cuda/ze_cuda_ptx" "$BUILD_DIR/benchmarks/spirv/triad.spv" "$OUT_DIR/triad.ptx"
    NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
    "$NVCC" -ptx -arch=sm_90 -o "$OUT_DIR/triad_nvcc.ptx" driver/cuda/tests/triad_baseline.cu
    cp "$BUILD_DIR/driver/cuda/ze_cuda_gpu_check" "$OUT_DIR/"
    cp "$BUILD_DIR/benchmarks/spirv/triad.spv" "$OUT_DIR/"
    stack=$(mktemp -d)
    mkdir -p "$stack/lib"
    cp "$BUILD_DIR/driver/libze_cuda.so" "$BUILD_DIR/driver/libze_opencl.so" \
        "$BUILD_DIR/driver/cuda/tests/ze_cuda_two_drivers_test" \
        "$BUILD_DIR/driver/cuda/tests/ze_cuda_usm_test" \
        "$BUILD_DIR/driver/cuda/tests/ze_cuda_lists_test" \
        "$BUILD_DIR/driver/cuda/ze_cuda_module_cost" "$stack/"
    cp /usr/lib/clc/nvptx64--nvidiacl.bc "$stack/"
    # What Ubuntu 24.04 with CUDA lacks of what these need (ldd here), and the
    # loader's validation layer, which the loader opens by name.
    for lib in libLLVM-15.so.1 libLLVMSPIRVLib.so.15 libz3.so.4 libze_loader.so.1 \
        libze_validation_layer.so.1; do
        cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }' || true)" \
            "$stack/lib/$lib" 2>/dev/null || cp -L "/usr/lib/llvm-15/lib/$lib" "$stack/lib/$lib"
    done
    tar -C "$stack" -cJf "$OUT_DIR/stack.tar.xz" .
    rm -rf "$stack"
    du -sh "$OUT_DIR"/*
    ;;
run)
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    "$OUT_DIR/ze_cuda_gpu_check" "$OUT_DIR"
    stack=/tmp/ze_gpu_stack
    rm -rf "$stack" && mkdir -p "$stack" && tar -C "$stack" -xJf "$OUT_DIR/stack.tar.xz"
    export LD_LIBRARY_PATH="$stack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export ZE_ENABLE_VALIDATION_LAYER=1 ZE_ENABLE_PARAMETER_VALIDATION=1
    status=0
    ZE_CUDA_LIBCLC="$stack/nvptx64--nvidiacl.bc" "$stack/ze_cuda_module_cost" "$OUT_DIR/triad.spv" \
        driver/cuda/tests/triad_baseline.cu || status=1
    # PoCL's CPU device only: the device machine's NVIDIA OpenCL platform is
    # an OpenCL device with SVM too, which libze_opencl.so would list.
    ZE_OPENCL_PLATFORM="Portable Computing Language" \
        ZE_ENABLE_ALT_DRIVERS="$stack/libze_opencl.so,$stack/libze_cuda.so" \
        "$stack/ze_cuda_two_drivers_test" --gtest_filter='TwoDrivers.*' || status=1
    ZE_ENABLE_ALT_DRIVERS="$stack/libze_cuda.so" \
        "$stack/ze_cuda_two_drivers_test" --gtest_filter='CudaAlone.*' || status=1
    ZE_ENABLE_ALT_DRIVERS="$stack/libze_cuda.so" "$stack/ze_cuda_usm_test" || status=1
    ZE_ENABLE_ALT_DRIVERS="$stack/libze_cuda.so" "$stack/ze_cuda_lists_test" || status=1
    exit $status
    ;;
*)
    echo "usage: $0 prepare|run" >&2
    exit 2
    ;;
esac
