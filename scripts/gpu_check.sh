#!/usr/bin/env bash
# The CUDA backend on the lent NVIDIA GPU (the `device` tool; no GPU here).
#   bash scripts/gpu_check.sh prepare   here: translates the test kernels to
#       PTX with the project's chain (ze_cuda_ptx), compiles the CUDA C
#       baseline with nvcc, and packs into build/gpu (ignored by git: name it
#       in the tool's `carry`):
#         stack.tar.xz  what the device machine lacks: the Level Zero loader
#                       and validation layer, LLVM 15, clang 15, LLVMSPIRVLib,
#                       z3, libclc's NVPTX library, clang's OpenCL headers
#                       (made once: delete it after changing those packages);
#         tree.tar.xz   the build outputs that run there (both drivers, the
#                       library, the driver's, the library's and the runtimes'
#                       test programs with their SPIR-V, the examples, the
#                       benchmarks), stripped of debug information, at their
#                       paths under build/.
#         kernel_suite/ with BENCH_KERNEL_SUITE=<suite file> (a suite of
#                       kernels for bench_cuda_vs_opencl, kernel_suite.hpp,
#                       such as public projects' kernels this repository
#                       does not hold): the suite, the files it names and
#                       the headers beside them, and reference/, the CPU
#                       driver's outputs of the suite (run here, on PoCL);
#         compare.tar.xz with RUN_COMPARE_SUITE=<suite file> (generic
#                       inputs: scripts/suite_from_sources.py): the suite,
#                       its files and the CPU driver's run of it against
#                       PoCL (scripts/run_compare.py), for `run compare`;
#         sycl.tar.xz   with the SYCL tests built (IMEX_L0_BUILD_SYCL): the
#                       SYCL runtime's libraries and the Level Zero loader
#                       it needs (.deps/, docs/sycl.md) (made once);
#   bash scripts/gpu_check.sh run [suites|benchmarks|launch|peers|math|compare|sycl|model]
#                                       there: unpacks them, makes the paths
#       compiled into the programs valid (the repository at this machine's
#       path, clang's resource directory), and runs, each with a time limit
#       and its time printed: the PTX checks and measurements
#       (ze_cuda_gpu_check), zeModuleCreate's cost against NVRTC, the CUDA
#       driver's suites, the library's suites and the examples with
#       libze_cuda.so, and the launch benchmarks (without the validation
#       layer, as an application runs; none of them with `suites`; only
#       they with `benchmarks`, only
#       the launch costs, bench_cuda_launch and bench_launch, with `launch`; with
#       `peers`, on two GPUs or more, only the two-GPU suites and benchmark;
#       with `math`, the builtins' suite (ze_cuda.builtins) and the kernels
#       against NVIDIA's OpenCL on the same sources, bench_cuda_vs_opencl:
#       the project's (benchmarks/kernels/math: five kernels and OpenCL C's
#       builtins family by family) and the packed kernel suite, its outputs
#       also compared with the CPU driver's (BENCH_MATH_FILTER=<regex>:
#       only the cases it matches are timed, all are built and compared,
#       for a run longer than one call of the device machine);
#       with `compare`, run-and-compare of the packed suite (each kernel
#       in a process of its own on libze_cuda.so and NVIDIA's OpenCL, its
#       outputs against NVIDIA's and the CPU driver's, faults and hangs
#       reported);
#       with `model`, the
#       USM, lists and kernels suites and the driver's suites of virtual
#       memory, IPC and images and the pitched copies' benchmark
#       (bench_cuda_copy); with `sycl`, only
#       the SYCL interop tests, example and benchmark, which the full run
#       includes when sycl.tar.xz is there). Exits
#       non-zero if a suite failed; the summary at the end names them.
# The device machine has no LLVM 15, libclc or Level Zero loader, so
# everything it runs is made here.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${IMEX_L0_BUILD_DIR:-build}"
OUT_DIR="$BUILD_DIR/gpu"

# What runs on the GPU machine, relative to the build directory.
GPU_PROGRAMS=(
    driver/libze_cuda.so driver/libze_opencl.so
    driver/cuda/ze_cuda_module_cost
    driver/cuda/tests/ze_cuda_two_drivers_test driver/cuda/tests/ze_cuda_usm_test
    driver/cuda/tests/ze_cuda_lists_test driver/cuda/tests/ze_cuda_kernels_test
    driver/cuda/tests/ze_cuda_builtins_test driver/cuda/tests/ze_cuda_device_lost_test
    driver/cuda/tests/ze_cuda_peers_test
    driver/tests/ze_opencl_virtual_memory_test driver/tests/ze_opencl_ipc_test
    driver/tests/ze_opencl_image_test
    tests/gpu_runtime/gpu_runtime_test tests/mlir_runtime/mlir_runtime_test
    tests/mlir_runtime/mlir_runtime_aot
    examples/regular_list examples/embed_framework examples/gpux_user_stream
    examples/gpux_lowered
    benchmarks/bench_launch benchmarks/bench_gpu_runtime benchmarks/bench_cuda_launch
    benchmarks/bench_cuda_peer benchmarks/bench_cuda_copy benchmarks/bench_cuda_vs_opencl
    benchmarks/libbench_sampler.so)
# The OpenCL driver's suites, run on libze_cuda.so for information (they
# expect some things only that driver has: images, IPC, virtual memory).
GPU_DRIVER_SUITES=(driver_device context command_list immediate_list event_fence memory
    module_kernel lifetime)
GPU_INTEROP_TESTS=(engine stream memory kernel events execute embedding c_api cpp_wrapper
    cpp_wrapper_modes cpp_wrapper_noexcept device_lost two_devices)
GPU_DATA=(driver/tests/spirv driver/cuda/tests/spirv driver/program/spirv tests/interop/spirv tests/gpu_runtime/spirv
    tests/mlir_runtime/spirv benchmarks/spirv examples/spirv tests/sycl/spirv)

# SYCL interop on Intel's SYCL runtime (docs/sycl.md): the programs, and what
# of .deps/ they load (the runtime's Level Zero adapter and what it needs, the
# Level Zero loader 1.20.6 with its validation layer).
SYCL_PROGRAMS=(tests/sycl/sycl_interop_test tests/sycl/gpu_sycl_runtime_test
    examples/sycl_framework benchmarks/bench_sycl benchmarks/bench_gpu_sycl
    driver/tests/ze_opencl_newer_api_test)
SYCL_LIBS=(libsycl.so.9 libur_loader.so.0 libur_adapter_level_zero.so.0
    libur_adapter_level_zero_v2.so.0 libumf.so.1 libhwloc.so.15 libimf.so libsvml.so libirng.so
    libintlc.so.5)
sycl_built() { grep -q '^IMEX_L0_BUILD_SYCL:BOOL=ON' "$BUILD_DIR/CMakeCache.txt"; }

pack_sycl() {
    local root loader
    root=$(sed -n 's/^IMEX_L0_SYCL_ROOT:PATH=//p' "$BUILD_DIR/CMakeCache.txt")
    loader=$(sed -n 's/^IMEX_L0_SYCL_LOADER_DIR:PATH=//p' "$BUILD_DIR/CMakeCache.txt")
    tar -C "$root/lib" -chf - "${SYCL_LIBS[@]}" -C "$loader" . | xz -9 -T2 >"$OUT_DIR/sycl.tar.xz"
}

# What the device machine lacks of what the programs need (ldd here), the
# loader's validation layer (which the loader opens by name), libclc's NVPTX
# library and clang's OpenCL headers, into build/gpu/stack.tar.xz.
pack_stack() {
    local stack
    stack=$(mktemp -d)
    mkdir -p "$stack/lib" "$stack/clang-include"
    cp /usr/lib/clc/nvptx64--nvidiacl.bc "$stack/"
    cp "$(cat "$OUT_DIR/clang_resource_dir")"/include/opencl-c*.h "$stack/clang-include/"
    for lib in libLLVM-15.so.1 libclang-cpp.so.15 libLLVMSPIRVLib.so.15 libz3.so.4 \
        libze_loader.so.1 libze_validation_layer.so.1 libbenchmark.so.1debian; do
        cp -L "$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }' || true)" \
            "$stack/lib/$lib" 2>/dev/null || cp -L "/usr/lib/llvm-15/lib/$lib" "$stack/lib/$lib"
    done
    XZ_OPT=-9 tar -C "$stack" -cJf "$OUT_DIR/stack.tar.xz" .
    rm -rf "$stack"
}

# copy_suite_files <suite file> <dir>: the files a suite names and the
# headers beside them, at their paths relative to the suite file, under dir.
copy_suite_files() {
    local from
    from=$(cd "$(dirname "$1")" && pwd -P)
    awk '!/^#/ && NF { print $2 }' "$1" | tr '+' '\n' | xargs -n1 dirname |
        sort -u | while read -r dir; do
            mkdir -p "$2/$dir"
            find "$from/$dir" -maxdepth 1 -type f \( -name '*.cl' -o -name '*.h' -o -name '*.hpp' \
                -o -name '*.clh' \) -exec cp {} "$2/$dir/" \;
        done
}

# The suite BENCH_KERNEL_SUITE names, with its files and the headers beside
# them, into $OUT_DIR/kernel_suite; the CPU driver's outputs of it (on PoCL)
# into kernel_suite/reference, for the GPU run to compare with.
pack_kernel_suite() {
    local pack="$OUT_DIR/kernel_suite"
    rm -rf "$pack" && mkdir -p "$pack/reference"
    cp "$BENCH_KERNEL_SUITE" "$pack/suite.txt"
    copy_suite_files "$BENCH_KERNEL_SUITE" "$pack"
    ZE_ENABLE_ALT_DRIVERS="$PWD/$BUILD_DIR/driver/libze_opencl.so" BENCH_OPENCL_PLATFORM=Portable \
        BENCH_KERNEL_SUITE="$pack/suite.txt" BENCH_SAVE_OUTPUTS="$pack/reference" \
        "$BUILD_DIR/benchmarks/bench_cuda_vs_opencl" --benchmark_filter='^$' >"$pack/reference.log"
}

# The suite RUN_COMPARE_SUITE names (scripts/suite_from_sources.py makes one
# with generic inputs), its files, and the CPU driver's run of it against
# PoCL (scripts/run_compare.py: reference.txt, its table; reference/, the
# outputs), into $OUT_DIR/compare.tar.xz for `run compare`.
pack_compare_suite() {
    local pack
    pack=$(mktemp -d)
    cp "$RUN_COMPARE_SUITE" "$pack/suite.txt"
    copy_suite_files "$RUN_COMPARE_SUITE" "$pack"
    mkdir -p "$pack/reference"
    ZE_ENABLE_ALT_DRIVERS="$PWD/$BUILD_DIR/driver/libze_opencl.so" BENCH_OPENCL_PLATFORM=Portable \
        BENCH_SAVE_OUTPUTS="$pack/reference" scripts/run_compare.py \
        "$BUILD_DIR/benchmarks/bench_cuda_vs_opencl" "$pack/suite.txt" "$pack/logs" \
        --timeout 120 >"$pack/reference.txt"
    rm -rf "$pack/logs"
    tail -20 "$pack/reference.txt"
    XZ_OPT=-9 tar -C "$pack" -cJf "$OUT_DIR/compare.tar.xz" .
    rm -rf "$pack"
}

case "${1:-}" in
prepare)
    targets=(ze_cuda_ptx ze_cuda_gpu_check)
    for p in "${GPU_PROGRAMS[@]}"; do
        name=$(basename "$p")
        case "$name" in
        libze_cuda.so) targets+=(ze_cuda) ;;
        libze_opencl.so) targets+=(ze_opencl) ;;
        *) targets+=("$name") ;;
        esac
    done
    for t in "${GPU_INTEROP_TESTS[@]}"; do targets+=("interop_${t}_test"); done
    for t in "${GPU_DRIVER_SUITES[@]}"; do targets+=("ze_opencl_${t}_test"); done
    # MLIR's end-to-end programs, compiled ahead of time (tests/mlir_aot).
    aot=()
    if [ -f "$BUILD_DIR/tests/mlir_aot/programs.txt" ]; then
        while read -r program _; do aot+=("$program"); done <"$BUILD_DIR/tests/mlir_aot/programs.txt"
        for p in "${aot[@]}"; do targets+=("$(basename "$p")"); done
    fi
    files=()
    if sycl_built; then
        files+=("${SYCL_PROGRAMS[@]}")
        for p in "${SYCL_PROGRAMS[@]}"; do targets+=("$(basename "$p")"); done
    fi
    cmake --build "$BUILD_DIR" --target "${targets[@]}" imex_l0_interop imex_l0_mlir_runtime
    sycl_built && files+=(lib/libimex_gpu_sycl.so.0)
    mkdir -p "$OUT_DIR"
    "$BUILD_DIR/driver/cuda/ze_cuda_ptx" "$BUILD_DIR/tests/gpu_runtime/spirv/gpu_kernels.spv" \
        "$OUT_DIR/gpu_kernels.ptx"
    "$BUILD_DIR/driver/cuda/ze_cuda_ptx" "$BUILD_DIR/benchmarks/spirv/triad.spv" "$OUT_DIR/triad.ptx"
    NVCC="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
    "$NVCC" -ptx -arch=sm_90 -o "$OUT_DIR/triad_nvcc.ptx" driver/cuda/tests/triad_baseline.cu
    cp "$BUILD_DIR/driver/cuda/ze_cuda_gpu_check" "$OUT_DIR/"
    # FileCheck checks the MLIR programs' output there, as lit does here.
    cp /usr/lib/llvm-22/bin/FileCheck "$OUT_DIR/"
    # libdevice, NVIDIA's math library, which the translation links where it
    # is (driver/cuda/libdevice_math.hpp).
    cp /usr/local/cuda/nvvm/libdevice/libdevice.10.bc "$OUT_DIR/" 2>/dev/null || true
    cp "$BUILD_DIR/tests/mlir_aot/programs.txt" "$OUT_DIR/mlir_aot_programs.txt" 2>/dev/null ||
        : >"$OUT_DIR/mlir_aot_programs.txt"
    cp "$BUILD_DIR/benchmarks/spirv/triad.spv" "$OUT_DIR/"
    clang-15 -print-resource-dir > "$OUT_DIR/clang_resource_dir"

    # The stack changes only with this machine's packages: made once.
    [ -f "$OUT_DIR/stack.tar.xz" ] || pack_stack
    if sycl_built; then [ -f "$OUT_DIR/sycl.tar.xz" ] || pack_sycl; fi
    [ -n "${BENCH_KERNEL_SUITE:-}" ] && pack_kernel_suite
    [ -n "${RUN_COMPARE_SUITE:-}" ] && pack_compare_suite

    tree=$(mktemp -d)
    files+=("${GPU_PROGRAMS[@]}" "${aot[@]}")
    for t in "${GPU_INTEROP_TESTS[@]}"; do files+=("tests/interop/interop_${t}_test"); done
    for t in "${GPU_DRIVER_SUITES[@]}"; do files+=("driver/tests/ze_opencl_${t}_test"); done
    for f in "${files[@]}" lib/libimex_l0_interop.so.0 lib/libimex_l0_mlir_runtime.so.0 \
        lib/libimex_l0_compiler.so; do
        mkdir -p "$tree/$(dirname "$f")"
        cp -L "$BUILD_DIR/$f" "$tree/$f"
        strip --strip-debug "$tree/$f"
    done
    for d in "${GPU_DATA[@]}"; do
        if [ -d "$BUILD_DIR/$d" ]; then
            mkdir -p "$tree/$d"
            cp "$BUILD_DIR/$d"/*.spv "$tree/$d/"
        fi
    done
    XZ_OPT=-9 tar -C "$tree" -cJf "$OUT_DIR/tree.tar.xz" .
    rm -rf "$tree"
    du -sh "$OUT_DIR"/*
    ;;
run)
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
    here=$(pwd -P)
    stack=/tmp/ze_gpu_stack
    rm -rf "$stack" && mkdir -p "$stack" && tar -C "$stack" -xJf "$OUT_DIR/stack.tar.xz"
    tar -C "$BUILD_DIR" -xJf "$OUT_DIR/tree.tar.xz"
    # The programs name their inputs by the paths of the machine that built
    # them: the repository's and clang's resource directory.
    built_at=$(strings "$BUILD_DIR/tests/gpu_runtime/gpu_runtime_test" |
        grep -o '/[^"]*/tests/gpu_runtime/spirv/gpu_kernels.spv' | head -1)
    built_at=${built_at%/build/tests/gpu_runtime/spirv/gpu_kernels.spv}
    if [ -n "$built_at" ] && [ "$built_at" != "$here" ]; then
        mkdir -p "$(dirname "$built_at")" && ln -sfn "$here" "$built_at"
    fi
    resource=$(cat "$OUT_DIR/clang_resource_dir")
    mkdir -p "$resource" && ln -sfn "$stack/clang-include" "$resource/include"
    export LD_LIBRARY_PATH="$stack/lib:$here/$BUILD_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export ZE_ENABLE_VALIDATION_LAYER=1 ZE_ENABLE_PARAMETER_VALIDATION=1
    export ZE_CUDA_LIBCLC="$stack/nvptx64--nvidiacl.bc"
    [ -f "$OUT_DIR/libdevice.10.bc" ] && export ZE_CUDA_LIBDEVICE="$here/$OUT_DIR/libdevice.10.bc"
    cuda_driver="$here/$BUILD_DIR/driver/libze_cuda.so"
    failed=()
    # section <name> <seconds> <command...>: runs it with a time limit.
    section() {
        local name=$1 limit=$2
        shift 2
        echo "=== $name"
        local start=$SECONDS
        if timeout "$limit" "$@"; then
            echo "=== $name: passed in $((SECONDS - start)) s"
        else
            echo "=== $name: FAILED (exit $?) in $((SECONDS - start)) s"
            failed+=("$name")
        fi
    }
    b=$BUILD_DIR
    # NVIDIA's OpenCL, the baseline of bench_cuda_vs_opencl, is installed on
    # the GPU machine but not registered with the ICD loader.
    nvidia_opencl() {
        [ -w /etc/OpenCL/vendors ] && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
        local suite=(env)
        if [ -f "$OUT_DIR/kernel_suite/suite.txt" ]; then
            local math="$here/benchmarks/kernels/math"
            suite+=(BENCH_KERNEL_SUITE="$math/cases.txt:$math/builtins.txt:$here/$OUT_DIR/kernel_suite/suite.txt"
                BENCH_REFERENCE_OUTPUTS="$here/$OUT_DIR/kernel_suite/reference")
        fi
        # Build times without CUDA's cache of compiled programs (both sides').
        section bench_cuda_vs_opencl 480 "${suite[@]}" CUDA_CACHE_DISABLE=1 \
            "$b/benchmarks/bench_cuda_vs_opencl" --benchmark_repetitions=7 \
            ${BENCH_MATH_FILTER:+"--benchmark_filter=$BENCH_MATH_FILTER"}
        rm -f /etc/OpenCL/vendors/nvidia.icd
    }
    # unpack <pack> <dir> <why it may be missing>: the pack of $OUT_DIR in
    # dir (emptied first), or a line saying it was not packed (status 1).
    unpack() {
        if [ ! -f "$OUT_DIR/$1" ]; then
            echo "=== ${1%%.*}: not packed ($3)"
            return 1
        fi
        rm -rf "$2" && mkdir -p "$2" && tar -C "$2" -xJf "$OUT_DIR/$1"
    }
    # SYCL on libze_cuda.so: the runtime's libraries and its loader first.
    sycl_checks() {
        local dir=/tmp/ze_gpu_sycl
        unpack sycl.tar.xz "$dir" "the build has no SYCL tests" || return 0
        local vars=(LD_LIBRARY_PATH="$dir:$LD_LIBRARY_PATH" ONEAPI_DEVICE_SELECTOR='level_zero:*'
            ZE_ENABLE_ALT_DRIVERS="$cuda_driver")
        # The driver's entry points of Level Zero 1.6+ through that loader.
        section newer_api 60 env "${vars[@]}" IMEX_L0_REQUIRE_NEWER_LOADER=1 \
            "$b/driver/tests/ze_opencl_newer_api_test"
        section sycl_interop.immediate_lists 120 env "${vars[@]}" UR_L0_USE_IMMEDIATE_COMMANDLISTS=1 \
            "$b/tests/sycl/sycl_interop_test" --gtest_filter='-RegularLists.*'
        section sycl_interop.regular_lists 120 env "${vars[@]}" UR_L0_USE_IMMEDIATE_COMMANDLISTS=0 \
            "$b/tests/sycl/sycl_interop_test" --gtest_filter='RegularLists.*'
        section gpu_sycl_runtime 120 env "${vars[@]}" "$b/tests/sycl/gpu_sycl_runtime_test"
        # The runtime's Level Zero v2 adapter.
        section sycl_interop.v2 120 env "${vars[@]}" SYCL_UR_USE_LEVEL_ZERO_V2=1 \
            "$b/tests/sycl/sycl_interop_test" --gtest_filter='-RegularLists.*'
        section gpu_sycl_runtime.v2 120 env "${vars[@]}" SYCL_UR_USE_LEVEL_ZERO_V2=1 \
            "$b/tests/sycl/gpu_sycl_runtime_test"
        section "example sycl_framework" 60 env "${vars[@]}" UR_L0_USE_IMMEDIATE_COMMANDLISTS=1 \
            "$b/examples/sycl_framework"
        section bench_sycl 120 env -u ZE_ENABLE_VALIDATION_LAYER -u ZE_ENABLE_PARAMETER_VALIDATION \
            "${vars[@]}" "$b/benchmarks/bench_sycl" --benchmark_min_time=0.3 --benchmark_repetitions=5
        section bench_gpu_sycl 120 env -u ZE_ENABLE_VALIDATION_LAYER -u ZE_ENABLE_PARAMETER_VALIDATION \
            "${vars[@]}" "$b/benchmarks/bench_gpu_sycl" --benchmark_min_time=0.3 \
            --benchmark_repetitions=5
    }
    if [ "${2:-}" = sycl ]; then
        sycl_checks
        echo "=== summary: ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
        [ ${#failed[@]} -eq 0 ]
        exit
    fi
    # Run-and-compare (scripts/run_compare.py) of the packed suite: each
    # kernel on libze_cuda.so and on NVIDIA's OpenCL, its outputs compared
    # with NVIDIA's and with the CPU driver's (reference/).
    run_compare() {
        local dir=/tmp/ze_compare
        unpack compare.tar.xz "$dir" "prepare with RUN_COMPARE_SUITE=<suite file>" || return 0
        [ -w /etc/OpenCL/vendors ] && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
        section run_compare 540 env ZE_ENABLE_ALT_DRIVERS="$cuda_driver" \
            BENCH_REFERENCE_OUTPUTS="$dir/reference" scripts/run_compare.py \
            "$b/benchmarks/bench_cuda_vs_opencl" "$dir/suite.txt" "$dir/logs" --jobs 8 --timeout 60
        rm -f /etc/OpenCL/vendors/nvidia.icd
    }
    if [ "${2:-}" = compare ]; then
        unset ZE_ENABLE_VALIDATION_LAYER ZE_ENABLE_PARAMETER_VALIDATION
        run_compare
        echo "=== summary: ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
        [ ${#failed[@]} -eq 0 ]
        exit
    fi
    if [ "${2:-}" = math ]; then
        # The math of the translation: its accuracy and its speed against
        # NVIDIA's OpenCL on the same sources.
        export ZE_ENABLE_ALT_DRIVERS="$cuda_driver"
        section ze_cuda.builtins 180 "$b/driver/cuda/tests/ze_cuda_builtins_test"
        unset ZE_ENABLE_VALIDATION_LAYER ZE_ENABLE_PARAMETER_VALIDATION
        nvidia_opencl
        echo "=== summary: ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
        [ ${#failed[@]} -eq 0 ]
        exit
    fi
    # The driver suites of the programming model's parts the CUDA backend
    # came to last, on libze_cuda.so: physical and virtual memory, memory and
    # event pools shared between processes (IPC of shared memory is the
    # OpenCL backend's only: CUDA shares device memory), images and samplers.
    model_checks() {
        section virtual_memory 120 "$b/driver/tests/ze_opencl_virtual_memory_test"
        section ipc 120 "$b/driver/tests/ze_opencl_ipc_test" \
            --gtest_filter='IpcTest.*:-IpcTest.OpensInTheSameProcessShareTheData'
        section images 120 "$b/driver/tests/ze_opencl_image_test"
        section bench_cuda_copy 120 env -u ZE_ENABLE_VALIDATION_LAYER -u \
            ZE_ENABLE_PARAMETER_VALIDATION "$b/benchmarks/bench_cuda_copy" --benchmark_min_time=0.2
    }
    if [ "${2:-}" = model ]; then
        export ZE_ENABLE_ALT_DRIVERS="$cuda_driver"
        for s in usm lists kernels; do
            section "ze_cuda.$s" 180 "$b/driver/cuda/tests/ze_cuda_${s}_test"
        done
        model_checks
        echo "=== summary: ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
        [ ${#failed[@]} -eq 0 ]
        exit
    fi
    if [ "${2:-}" = launch ]; then
        # A launch's host cost against CUDA's and the library's against raw
        # Level Zero, as an application runs them (no validation layer).
        export ZE_ENABLE_ALT_DRIVERS="$cuda_driver"
        unset ZE_ENABLE_VALIDATION_LAYER ZE_ENABLE_PARAMETER_VALIDATION
        section bench_cuda_launch 120 "$b/benchmarks/bench_cuda_launch" --benchmark_min_time=0.3
        section bench_launch 180 "$b/benchmarks/bench_launch" --benchmark_min_time=0.2
        echo "=== summary: ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
        [ ${#failed[@]} -eq 0 ]
        exit
    fi
    if [ "${2:-}" = peers ]; then
        # Two GPUs or more (nvidia-h100-x2): only what needs them.
        export ZE_ENABLE_ALT_DRIVERS="$cuda_driver"
        section ze_cuda.peers 180 "$b/driver/cuda/tests/ze_cuda_peers_test"
        section interop_two_devices 180 "$b/tests/interop/interop_two_devices_test"
        unset ZE_ENABLE_VALIDATION_LAYER ZE_ENABLE_PARAMETER_VALIDATION
        section bench_cuda_peer 120 "$b/benchmarks/bench_cuda_peer" --benchmark_min_time=0.5
        echo "=== summary: ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
        [ ${#failed[@]} -eq 0 ]
        exit
    fi
    if [ "${2:-}" != benchmarks ]; then
        section ptx_check 120 "$OUT_DIR/ze_cuda_gpu_check" "$OUT_DIR"
        section module_cost 120 "$b/driver/cuda/ze_cuda_module_cost" "$OUT_DIR/triad.spv" \
            driver/cuda/tests/triad_baseline.cu
        # PoCL's CPU device only: the device machine's NVIDIA OpenCL platform is
        # an OpenCL device with SVM too, which libze_opencl.so would list.
        section two_drivers 60 env ZE_OPENCL_PLATFORM="Portable Computing Language" \
            ZE_ENABLE_ALT_DRIVERS="$here/$b/driver/libze_opencl.so,$cuda_driver" \
            "$b/driver/cuda/tests/ze_cuda_two_drivers_test" --gtest_filter='TwoDrivers.*'
        export ZE_ENABLE_ALT_DRIVERS="$cuda_driver"
        section cuda_alone 60 "$b/driver/cuda/tests/ze_cuda_two_drivers_test" \
            --gtest_filter='CudaAlone.*'
        # device_lost loses the GPU for its process: a process of its own.
        for s in usm lists kernels builtins device_lost peers; do
            section "ze_cuda.$s" 180 "$b/driver/cuda/tests/ze_cuda_${s}_test"
        done
        model_checks
        for t in "${GPU_INTEROP_TESTS[@]}"; do
            section "interop_$t" 180 "$b/tests/interop/interop_${t}_test"
        done
        section gpu_runtime 180 "$b/tests/gpu_runtime/gpu_runtime_test"
        section mlir_runtime 180 "$b/tests/mlir_runtime/mlir_runtime_test"
        section mlir_runtime_aot 60 "$b/tests/mlir_runtime/mlir_runtime_aot"
        # MLIR's end-to-end programs (tests/mlir_aot), each checked against its
        # source's CHECK lines as lit checks it on the CPU.
        while read -r program source; do
            section "mlir $(basename "$program")" 60 sh -c \
                "\"$b/$program\" | \"$OUT_DIR/FileCheck\" \"$source\"" </dev/null
        done <"$OUT_DIR/mlir_aot_programs.txt"
        for e in regular_list embed_framework gpux_user_stream gpux_lowered; do
            section "example $e" 60 "$b/examples/$e"
        done
        sycl_checks
        # For information: the tally of each, and what failed.
        for t in "${GPU_DRIVER_SUITES[@]}"; do
            echo "=== driver suite $t (information)"
            rc=0
            out=$(ZE_OPENCL_DEVICE_TYPE=GPU timeout 300 "$b/driver/tests/ze_opencl_${t}_test" 2>&1) ||
                rc=$?
            grep -E -A4 '^\[  (PASSED|FAILED|SKIPPED) |: Failure$' <<<"$out" | head -80 || true
            [ "$rc" -le 1 ] || echo "(exit $rc: the suite crashed or timed out)"
        done
    fi
    if [ "${2:-}" = suites ]; then
        echo "=== summary: ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
        [ ${#failed[@]} -eq 0 ]
        exit
    fi
    export ZE_ENABLE_ALT_DRIVERS="$cuda_driver"
    unset ZE_ENABLE_VALIDATION_LAYER ZE_ENABLE_PARAMETER_VALIDATION
    section bench_cuda_launch 120 "$b/benchmarks/bench_cuda_launch" --benchmark_min_time=0.3
    section bench_cuda_peer 120 "$b/benchmarks/bench_cuda_peer" --benchmark_min_time=0.5
    section bench_launch 180 "$b/benchmarks/bench_launch" --benchmark_min_time=0.2
    nvidia_opencl
    run_compare
    echo "=== summary: ${#failed[@]} failed${failed[*]:+: ${failed[*]}}"
    [ ${#failed[@]} -eq 0 ]
    ;;
*)
    echo "usage: $0 prepare|run" >&2
    exit 2
    ;;
esac
