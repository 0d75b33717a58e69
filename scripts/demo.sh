#!/usr/bin/env bash
# The README's demo command: installs what is needed, builds, and runs the
# embedding example on the default driver: Intel's GPU driver when the system
# has one, the project's Level Zero driver on OpenCL (PoCL) otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
BUILD_DIR="${IMEX_L0_BUILD_DIR:-build}"
DEMO="$BUILD_DIR/examples/embed_framework"
[ -x "$DEMO" ] || DEMO="$BUILD_DIR/driver/examples/ze_vector_add"

if ldconfig -p | grep -q 'libze_intel_gpu\.so\.1'; then
  echo "demo: running on Intel's Level Zero GPU driver (libze_intel_gpu.so.1)"
  exec "$DEMO"
fi
DRIVER="$(cd "$BUILD_DIR/driver" && pwd)/libze_opencl.so"
echo "demo: no Intel GPU driver found; running on the project's driver $DRIVER (OpenCL on PoCL)"
ZE_ENABLE_ALT_DRIVERS="$DRIVER" exec "$DEMO"
