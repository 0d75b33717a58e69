#!/usr/bin/env bash
# Builds and runs the test suite under a sanitizer in its own build directory:
#   bash scripts/sanitize.sh address   # AddressSanitizer + LeakSanitizer
#   bash scripts/sanitize.sh thread    # ThreadSanitizer (stress runs at a tenth)
# Suppressions for reports inside PoCL/LLVM/the loader: tests/sanitizers/.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-address}"
export IMEX_L0_BUILD_DIR="build-${kind}"
unset IMEX_L0_SANITIZERS
bash scripts/setup.sh
bash scripts/build.sh -DIMEX_L0_SANITIZE="$kind" -DIMEX_L0_BUILD_BENCHMARKS=OFF
# install.consumer builds a program outside the project without the sanitizer runtime.
ctest --test-dir "$IMEX_L0_BUILD_DIR" --output-on-failure -j "${IMEX_L0_JOBS:-$(nproc)}" -E install
