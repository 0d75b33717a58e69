#!/usr/bin/env bash
# Host instructions per iteration of the benchmark cases that mark their timed
# loop with bench::InstructionWindow, counted by callgrind on the benchmark's
# own thread only (PoCL's and the driver's threads are separate). Unlike
# times, these counts do not move with the machine's load; they do not see
# time spent in the kernel (system calls, waits).
#
#   benchmarks/callgrind_per_iteration.sh <benchmark binary> [benchmark options...]
# e.g.
#   benchmarks/callgrind_per_iteration.sh build/benchmarks/bench_launch --benchmark_filter=Execute
set -euo pipefail
binary=$1
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --tool=callgrind --collect-atstart=no --separate-threads=yes \
    --callgrind-out-file="$out/cg.out" "$binary" --benchmark_repetitions=1 \
    --benchmark_min_time=0.5 --benchmark_enable_random_interleaving=false "$@" \
    >"$out/log" 2>&1 || { tail -20 "$out/log"; exit 1; }
# Each window is one dump; the benchmark thread is thread 1. A case runs
# several times while Google Benchmark settles its iteration count: the run
# with the most iterations is reported.
printf '%-32s %12s %14s\n' case iterations "Ir/iteration"
for f in "$out"/cg.out.*-01; do
    desc=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
    [ -n "$desc" ] || continue
    total=$(sed -n 's/^summary: //p;s/^totals: //p' "$f" | head -1)
    echo "$desc ${total:-0}"
done | awk '{ split($2, kv, "="); n = kv[2]; if (n > best[$1]) { best[$1] = n; ir[$1] = $3 } }
            END { for (c in best) printf "%-32s %12d %14.0f\n", c, best[c], ir[c] / best[c] }' |
    sort
