#!/usr/bin/env bash
# The README's test command: installs what is needed, builds, runs every test
# through the system Level Zero loader with the project's driver and the
# validation layer (ctest sets that environment per test). Then the suite
# again in one build directory per sanitizer pass (scripts/sanitize.sh):
# AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer with the fuzz
# targets, then ThreadSanitizer. IMEX_L0_SANITIZERS picks the passes
# ("" skips them). Every stage prints its time; the log ends with ctest's
# summary.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/timing.sh
timed "setup" bash scripts/setup.sh
timed "build" bash scripts/build.sh
BUILD_DIR="${IMEX_L0_BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${IMEX_L0_JOBS:-$(nproc)}"
for sanitizer in ${IMEX_L0_SANITIZERS-address thread}; do
  echo "test: the suite under the ${sanitizer} sanitizer pass"
  bash scripts/sanitize.sh "$sanitizer"
done
