#!/usr/bin/env bash
# Regenerates the binary seeds in corpus/ (the text seeds of compile_opencl_c
# are written by hand):
#   module_create/spirv_*   the compile_opencl_c seeds that build, compiled by
#                           the project's compiler (through IMEX_L0_DUMP_DIR),
#                           behind a 0x00 format byte;
#   module_create/native_*  small native binaries (layout in
#                           driver/program/native_binary.cpp) for a device that
#                           is not this one, with a good, a bad and no checksum;
#   disk_cache/*            cache entries (layout in disk_cache.hpp).
# Usage: bash tests/fuzz/make_seeds.sh <build directory>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "${1:?usage: make_seeds.sh <build directory>}" && pwd)"
dump="$(mktemp -d)"
trap 'rm -rf "$dump"' EXIT

IMEX_L0_DUMP_DIR="$dump" "$build/tests/fuzz/compile_opencl_c_fuzzer" \
  "$here/corpus/compile_opencl_c" >/dev/null
rm -f "$here"/corpus/module_create/spirv_*
for source in "$here"/corpus/compile_opencl_c/*.cl; do
  for dumped in "$dump"/*.cl; do
    spirv="${dumped%.cl}.spv"
    if cmp -s "$source" "$dumped" && [ -f "$spirv" ]; then
      seed="$here/corpus/module_create/spirv_$(basename "$source" .cl)"
      { printf '\x00'; cat "$spirv"; } > "$seed"
    fi
  done
done

python3 - "$here/corpus" <<'PY'
import hashlib, struct, sys
corpus = sys.argv[1]

def write(name, data):
    with open(f"{corpus}/{name}", "wb") as f:
        f.write(data)

def counted(data):
    return struct.pack("<Q", len(data)) + data

def fnv1a64(data):
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xffffffffffffffff
    return h

payload = (counted(b"pthread-cpu 3.1 PoCL") + counted(b"\x7fELF") + struct.pack("<I", 1) +
           counted(b"k") + struct.pack("<4I", 0, 0, 0, 1) + struct.pack("<IQ", 0, 8) +
           counted(b"float*"))
native = b"ZEOCLBIN" + struct.pack("<IIQQ", 1, 0, len(payload), fnv1a64(payload)) + payload
write("module_create/native_foreign_device", b"\x03" + native)
write("module_create/native_bad_checksum", b"\x01" + native[:24] + bytes(8) + native[32:])
write("module_create/native_truncated", b"\x01" + native[:20])

def entry(spirv, log, fmt=2):
    key = hashlib.sha256(b"the fuzz target's one key").digest()
    body = spirv + log
    return (b"IMXL0SPV" + struct.pack("<IIQQ", fmt, 0, len(spirv), len(log)) + key +
            hashlib.sha256(body).digest() + body)

spirv = struct.pack("<7I", 0x07230203, 0x00010200, 0, 8, 0, (2 << 16) | 17, 4)
write("disk_cache/spirv_no_log", entry(spirv, b""))
write("disk_cache/spirv_and_warning", entry(spirv, b"kernel.cl:1:2: warning: unused variable 'x'\n"))
write("disk_cache/empty_payload", entry(b"", b""))
write("disk_cache/compile_error", entry(b"", b"kernel.cl:1:13: error: expected identifier\n"))
write("disk_cache/old_format", entry(spirv, b"", fmt=1))
write("disk_cache/truncated_header", entry(spirv, b"")[:40])
PY
ls -l "$here"/corpus/*
