#!/usr/bin/env bash
# Installs every Debian 12 package the project needs to build, test, run the demo
# and run the benchmarks, then the SYCL runtime and the Level Zero loader it
# needs into .deps/ (scripts/setup_sycl.sh). Idempotent: when everything is
# present it only checks.
set -euo pipefail

PACKAGES=(
  cmake g++ ninja-build pkg-config git
  # generates test inputs at build time; lit runs on it
  python3
  libze1 libze-dev
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd clinfo
  clang-15 libclang-common-15-dev libclang-15-dev libclang-cpp15-dev llvm-15-dev llvm-15-tools
  libllvmspirvlib-15-dev llvm-spirv-15
  # libclc's NVPTX builtins: the CUDA backend links them into every module
  libclc-15
  spirv-tools
  libgtest-dev libgmock-dev libbenchmark-dev
  # the SYCL runtime's virtual environment (scripts/setup_sycl.sh); patchelf
  # adapts the newer Level Zero loader it needs to Debian 12
  python3-venv patchelf
  # MLIR 22 (tests of the mgpu* runtime: mlir-opt/-runner/-translate, llc, lit,
  # FileCheck, the runner utilities); never linked by the library or driver
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
bash "$(dirname "$0")/setup_sycl.sh"
echo "setup: done"
