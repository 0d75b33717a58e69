#!/bin/bash
# Fetches the public projects' OpenCL C sources that the suite
# benchmarks/kernels/public/suite.txt runs (this repository does not hold
# them: each keeps its own license), each project at the commit the suite's
# inputs were written for, into benchmarks/kernels/public/sources/<project>/.
# Only the directories the suite draws on are kept.
#
#   bash scripts/public_kernels.sh
#
# Needs git and the network (github.com), or PUBLIC_KERNELS_GIT=<dir> where
# <dir>/<owner>/<name> are clones of the projects holding those commits.
# Then, for the GPU machine: BENCH_KERNEL_SUITE=benchmarks/kernels/public/suite.txt
# bash scripts/gpu_check.sh prepare (benchmarks/README.md, "Kernels against
# NVIDIA's OpenCL").
set -euo pipefail
cd "$(dirname "$0")/.."
into=benchmarks/kernels/public/sources
base=${PUBLIC_KERNELS_GIT:-https://github.com}

# project  owner/name  commit  directories
projects=(
    "polybench cavazos-lab/PolyBench-ACC 70ea4ca9047dc4ec9c3ca79b4c91b3b2cc1510e7 OpenCL/linear-algebra/kernels/gemm OpenCL/linear-algebra/kernels/gesummv OpenCL/stencils/convolution-2d"
    "shoc vetter/shoc 0aea03beba2f09fcb5935cc11737372fe4de9ec0 src/opencl/level1"
    "rodinia yuhc/gpu-rodinia 9c10d3ea16ddba2ba057cc3951a9efc4c2cc18a4 opencl/nn opencl/hotspot3D opencl/kmeans opencl/pathfinder opencl/backprop opencl/cfd"
    "gegl GNOME/gegl 3d6ed0be1a538da469b0ad86bc37f815f4b807eb operations/opencl"
    "clpeak krrishnarraj/clpeak a68fbf0514f0ada6a88823dba7cb7067569dbbf1 src/opencl/kernels"
    "sgminer sgminer-dev/sgminer 8bf1c1807cca1ca0ec0f87b452e3d1cb395f0b1b kernel"
    "arrayfire arrayfire/arrayfire 492718b5a256d4a9d5198fdce89d8fd21772bfda src/backend/opencl/kernel"
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for line in "${projects[@]}"; do
    read -r project repo commit dirs <<<"$line"
    echo "== $project ($repo at ${commit:0:12})"
    clone="$base/$repo"
    if [ ! -d "$clone" ]; then
        # The commit alone where the server gives it (GitHub does), else every branch.
        clone="$work/$project.git"
        git init --quiet --bare "$clone"
        git -C "$clone" fetch --quiet --depth 1 "$base/$repo" "$commit" 2>/dev/null ||
            git -C "$clone" fetch --quiet "$base/$repo" '+refs/heads/*:refs/heads/*'
    fi
    rm -rf "${into:?}/$project" && mkdir -p "$into/$project"
    # shellcheck disable=SC2086 # the directories are separate arguments
    git -C "$clone" archive "$commit" -- $dirs | tar -x -C "$into/$project"
done
# clpeak's kernels are C++ string literals, MSTRINGIFY( ... ) with "\n"
# before each preprocessor line: the OpenCL C its host program builds.
for f in "$into"/clpeak/src/opencl/kernels/*.cl; do
    python3 - "$f" "$into/clpeak/$(basename "$f")" <<'PY'
import sys
text = open(sys.argv[1]).read()
body = text[text.index("MSTRINGIFY(") + len("MSTRINGIFY("):text.rindex(")")]
open(sys.argv[2], "w").write(body.replace("\\n", "\n"))
PY
done
echo "sources in $into"
