#!/usr/bin/env bash
# The CUDA backend on the lent NVIDIA GPU (the `device` tool; no GPU here).
#   bash scripts/gpu_check.sh prepare   here: translates the test kernels to
#       PTX with the project's chain (ze_cuda_ptx), compiles the CUDA C
#       baseline with nvcc, and puts them with ze_cuda_gpu_check into
#       build/gpu (ignored by git: name it in the tool's `carry`).
#   bash scripts/gpu_check.sh run       there: runs the checks and the
#       measurements (results against the host, triad bandwidth against
#       nvcc's, cuLaunchKernel's host cost).
# The device machine has no LLVM 15 or libclc, so everything it runs is made
# here; it needs only libcuda.so.1 and libstdc++.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${IMEX_L0_BUILD_DIR:-build}"
OUT_DIR="$BUILD_DIR/gpu"
case "${1:-}" in
prepare)
    cmake --build "$BUILD_DIR" --target ze_cuda_ptx ze_cuda_gpu_check
    mkdir -p "$OUT_DIR"
    "$BUILD_DIR/driver/cuda/ze_cuda_ptx" "$BUILD_DIR/tests/gpu_runtime/spirv/gpu_kernels.spv" \
        "$OUT_DIR/gpu_kernels.ptx"
    "$BUILD_DIR/driver/cuda/ze_cuda_ptx" "$BUILD_DIR/benchmarks/spirv/triad.spv" "$OUT_DIR/triad.ptx"
    NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
    "$NVCC" -ptx -arch=sm_90 -o "$OUT_DIR/triad_nvcc.ptx" driver/cuda/tests/triad_baseline.cu
    cp "$BUILD_DIR/driver/cuda/ze_cuda_gpu_check" "$OUT_DIR/"
    du -sh "$OUT_DIR"
    ;;
run)
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    "$OUT_DIR/ze_cuda_gpu_check" "$OUT_DIR"
    ;;
*)
    echo "usage: $0 prepare|run" >&2
    exit 2
    ;;
esac
