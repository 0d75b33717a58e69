#!/usr/bin/env bash
# Installs what the SYCL parts of the project need, into .deps/ of the
# checkout (or $IMEX_L0_DEPS_DIR); nothing goes into the system's Python or
# library directories:
#   .deps/sycl        Intel's SYCL runtime from PyPI (intel-sycl-rt and what it
#                     depends on: the Unified Runtime and its Level Zero
#                     adapters) in a Python virtual environment, with dpctl and
#                     dpnp (NumPy on SYCL, with oneMKL: about 3 GB) for the
#                     dpnp check (IMEX_L0_WITH_DPNP=0 leaves them out);
#   .deps/level-zero  the Level Zero loader 1.20.6 (Debian 13's libze1 from
#                     Debian's archive), adapted to run on Debian 12. The SYCL
#                     runtime's Level Zero adapter needs a loader of 1.15 or
#                     later; Debian 12 ships 1.8.12. docs/sycl.md says why and how.
# Only programs that use SYCL run on that loader (the build's SYCL tests set
# LD_LIBRARY_PATH); everything else keeps the system's.
# IMEX_L0_WITH_SYCL=0 skips this. Idempotent: a finished install is kept.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${IMEX_L0_WITH_SYCL:-1}" = 0 ]; then
  echo "setup_sycl: skipped (IMEX_L0_WITH_SYCL=0)"
  exit 0
fi

DEPS="${IMEX_L0_DEPS_DIR:-$PWD/.deps}"
SYCL_VERSION=2026.2.0
SYCL_PACKAGES=("intel-sycl-rt==$SYCL_VERSION")
if [ "${IMEX_L0_WITH_DPNP:-1}" != 0 ]; then
  SYCL_PACKAGES+=(dpctl==0.22.1 dpnp==0.20.0)
fi
LOADER_VERSION=1.20.6
LOADER_DEB="libze1_${LOADER_VERSION}-1_amd64.deb"
LOADER_SHA256=a901ee6a081bfd1037b6e91fa46bb1f3e37dfd6503946032fb6866956106feb7
LOADER_URL="${IMEX_L0_DEBIAN_MIRROR:-http://deb.debian.org/debian}/pool/main/l/level-zero/$LOADER_DEB"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

install_loader() {
  local dir="$DEPS/level-zero"
  if [ -f "$dir/.installed-$LOADER_VERSION" ]; then
    echo "setup_sycl: Level Zero loader $LOADER_VERSION present in $dir"
    return
  fi
  echo "setup_sycl: Level Zero loader $LOADER_VERSION from $LOADER_URL"
  rm -rf "$dir"
  mkdir -p "$dir/lib"
  python3 - "$LOADER_URL" "$LOADER_SHA256" "$work/$LOADER_DEB" <<'PY'
import hashlib, sys, urllib.request
url, expected, out = sys.argv[1:]
data = urllib.request.urlopen(url, timeout=300).read()
got = hashlib.sha256(data).hexdigest()
if got != expected:
    sys.exit(f"setup_sycl: {url} has sha256 {got}, expected {expected}")
open(out, "wb").write(data)
PY
  dpkg-deb -x "$work/$LOADER_DEB" "$work/deb"
  # Built with GCC 14, the loader and its layers need one symbol of
  # libstdc++ 13 (GLIBCXX_3.4.32), std::ios_base_library_init. It is unbound
  # from that version, the need of the version removed, and a small library that
  # provides the symbol (and the stream initialisation it stands for) added
  # as their first dependency.
  g++ -std=c++17 -O2 -shared -fPIC -o "$dir/lib/libze_libstdcxx13_compat.so" \
    scripts/loader/libstdcxx13_compat.cpp
  local lib
  for lib in libze_loader libze_validation_layer libze_tracing_layer; do
    cp "$work/deb/usr/lib/x86_64-linux-gnu/$lib.so.$LOADER_VERSION" "$dir/lib/$lib.so.1"
    patchelf --clear-symbol-version _ZSt21ios_base_library_initv "$dir/lib/$lib.so.1"
    python3 scripts/loader/drop_version_need.py "$dir/lib/$lib.so.1" GLIBCXX_3.4.32
    # Two calls: patchelf 0.14 given both at once points the new runpath at
    # the new needed entry's string.
    patchelf --set-rpath '$ORIGIN' "$dir/lib/$lib.so.1"
    patchelf --add-needed libze_libstdcxx13_compat.so "$dir/lib/$lib.so.1"
  done
  python3 -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$dir/lib/libze_loader.so.1"
  cp "$work/deb/usr/share/doc/libze1/copyright" "$dir/copyright"
  touch "$dir/.installed-$LOADER_VERSION"
}

# The installed environment takes about 3 GB with dpnp (0.9 GB without), and
# pip needs room for the downloaded wheels while it unpacks them. A full disk
# would otherwise surface as pip's "No space left on device" halfway through.
check_free_space() {
  local need_mb=5000 free_mb
  [ "${IMEX_L0_WITH_DPNP:-1}" = 0 ] && need_mb=1500
  free_mb=$(df -Pm "$1" "$work" | awk 'NR > 1 && (min == "" || $4 < min) { min = $4 } END { print min }')
  if [ "$free_mb" -lt "$need_mb" ]; then
    echo "setup_sycl: ${free_mb} MB free in $1 or $work, the SYCL runtime needs about ${need_mb} MB" >&2
    echo "setup_sycl: free some space, point IMEX_L0_DEPS_DIR (and TMPDIR) elsewhere," \
      "leave dpnp out (IMEX_L0_WITH_DPNP=0) or SYCL altogether (IMEX_L0_WITH_SYCL=0)" >&2
    exit 1
  fi
}

install_sycl_runtime() {
  local dir="$DEPS/sycl" marker
  marker="$dir/.installed-$(echo "${SYCL_PACKAGES[*]}" | tr ' =' '_-')"
  if [ -f "$marker" ]; then
    echo "setup_sycl: ${SYCL_PACKAGES[*]} present in $dir"
    return
  fi
  echo "setup_sycl: ${SYCL_PACKAGES[*]} from PyPI into $dir"
  rm -rf "$dir"
  mkdir -p "$DEPS"
  check_free_space "$DEPS"
  python3 -m venv "$dir"
  # No wheel cache: it would keep a second copy of the download. pip's
  # temporary files go into this script's work directory (checked above too).
  TMPDIR="$work" "$dir/bin/pip" install --quiet --disable-pip-version-check --no-input \
    --no-cache-dir "${SYCL_PACKAGES[@]}"
  test -f "$dir/lib/libsycl.so" && test -f "$dir/include/sycl/sycl.hpp"
  touch "$marker"
}

install_loader
install_sycl_runtime
echo "setup_sycl: done"
