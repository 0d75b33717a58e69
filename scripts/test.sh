#!/usr/bin/env bash
# The README's test command: installs what is needed, builds, runs every test
# through the system Level Zero loader with the project's driver and the
# validation layer (ctest sets that environment per test). Then the same suite
# again under AddressSanitizer (+LeakSanitizer) and ThreadSanitizer, each in
# its own build directory; IMEX_L0_SANITIZERS="" skips those passes, e.g.
# IMEX_L0_SANITIZERS=address runs only the first. Ends with ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
BUILD_DIR="${IMEX_L0_BUILD_DIR:-build}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${IMEX_L0_JOBS:-$(nproc)}"
for sanitizer in ${IMEX_L0_SANITIZERS-address thread}; do
  echo "test: the suite under the ${sanitizer} sanitizer"
  bash scripts/sanitize.sh "$sanitizer"
done
