#!/usr/bin/env bash
# Builds and runs the test suite under a sanitizer in its own build directory:
#   bash scripts/sanitize.sh address  # AddressSanitizer + UndefinedBehaviorSanitizer +
#                                     # LeakSanitizer, with clang-15, plus the libFuzzer
#                                     # targets, each fuzzing IMEX_L0_FUZZ_SECONDS (60)
#   bash scripts/sanitize.sh thread   # ThreadSanitizer (stress runs at a tenth)
# Suppressions for reports inside PoCL/LLVM/the loader: tests/sanitizers/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/timing.sh
kind="${1:-address}"
export IMEX_L0_BUILD_DIR="build-${kind}"
unset IMEX_L0_SANITIZERS
case "$kind" in
  address)
    # libFuzzer needs clang; the whole pass uses it, so one build serves the
    # suite and the fuzz targets.
    export CC=clang-15 CXX=clang++-15
    options=(-DIMEX_L0_SANITIZE=address,undefined -DIMEX_L0_FUZZ=ON
             -DIMEX_L0_FUZZ_SECONDS="${IMEX_L0_FUZZ_SECONDS:-60}")
    ;;
  thread) options=(-DIMEX_L0_SANITIZE=thread) ;;
  *) echo "sanitize: the passes are address and thread, not '$kind'" >&2; exit 2 ;;
esac
timed "setup" bash scripts/setup.sh
timed "build (${kind})" bash scripts/build.sh "${options[@]}" -DIMEX_L0_BUILD_BENCHMARKS=OFF
# install.consumer builds a program outside the project without the sanitizer runtime.
status=0
ctest --test-dir "$IMEX_L0_BUILD_DIR" --output-on-failure -j "${IMEX_L0_JOBS:-$(nproc)}" \
  -E install || status=$?
if [ "$kind" = address ]; then
  # What each fuzz target reached (libFuzzer's final statistics; ctest keeps
  # the output of passing tests in its log).
  awk '/^[0-9]+\/[0-9]+ Test: fuzz\./ { name = $3 }
       name && /^stat::number_of_executed_units:/ { runs = $2 }
       name && /^stat::new_units_added:/ && !seen[name]++ {
         printf "fuzz: %s: %s executions, %s new inputs\n", name, runs, $2; name = "" }' \
    "$IMEX_L0_BUILD_DIR/Testing/Temporary/LastTest.log"
fi
exit "$status"
