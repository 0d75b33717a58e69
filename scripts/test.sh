#!/usr/bin/env bash
# The README's test command: installs what is needed, builds, runs every test
# through the system Level Zero loader with the project's driver and the
# validation layer (ctest sets that environment per test). Then the same suite
# again under ThreadSanitizer in its own build directory. IMEX_L0_SANITIZERS
# lists the sanitizer passes ("" skips them; "address thread" adds
# AddressSanitizer+LeakSanitizer, which is not in the default because
# LeakSanitizer's own tracer has crashed at process exit here, once in four
# runs, after all tests passed). Ends with ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
BUILD_DIR="${IMEX_L0_BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${IMEX_L0_JOBS:-$(nproc)}"
for sanitizer in ${IMEX_L0_SANITIZERS-thread}; do
  echo "test: the suite under the ${sanitizer} sanitizer"
  bash scripts/sanitize.sh "$sanitizer"
done
