#!/usr/bin/env bash
# Installs the build into a temporary prefix, builds tests/install/consumer
# against the installed CMake package, checks the pkg-config file, and runs
# the consumer on the installed driver.
set -euo pipefail
build_dir="$1"
source_dir="$2"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build_dir" --prefix "$prefix" > /dev/null
cmake -S "$source_dir/tests/install/consumer" -B "$prefix/consumer-build" \
      -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$prefix/consumer-build" > /dev/null
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs imex_l0_interop
lib_dir="$(ls -d "$prefix"/lib*/ | head -1)"
ZE_ENABLE_ALT_DRIVERS="${lib_dir}libze_opencl.so" LD_LIBRARY_PATH="$lib_dir" \
    "$prefix/consumer-build/consumer"
LD_LIBRARY_PATH="$lib_dir" "$prefix/consumer-build/mlir_consumer"
# The README's pkg-config command, verbatim but for the prefix.
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" cc "$source_dir/tests/install/consumer/consumer.c" \
    $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs imex_l0_interop) \
    -Wl,-rpath,"$lib_dir" -o "$prefix/consumer-pkgconfig"
ZE_ENABLE_ALT_DRIVERS="${lib_dir}libze_opencl.so" "$prefix/consumer-pkgconfig"
# Every header in one directory of the project's own.
for header in imex_l0_interop.h imex_l0_interop.hpp imex_l0_sycl.hpp imex_gpu_abi.h imex_gpu_runtime.h \
              imex_gpu_sycl_runtime.h imex_l0_mlir_runtime.h \
              ze_opencl_ext.h; do
    test -f "$prefix/include/imex_l0/$header"
done
test -z "$(ls "$prefix/include" | grep -v '^imex_l0$')"
