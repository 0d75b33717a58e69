#!/usr/bin/env python3
"""Removes one needed symbol version from an ELF64 shared object.

usage: drop_version_need.py <file> <version>

The dynamic linker refuses an object that needs a version its dependency
lacks (and, were the need only marked weak, would warn at every program
start). Used after every symbol of that version has been unbound from it
(patchelf --clear-symbol-version): nothing resolves against the version, so
its entry is unlinked from the list of versions needed of that dependency.
"""
import struct
import sys

SHT_GNU_VERNEED = 0x6FFFFFFE
VERNEED = "<HHIII"  # vn_version, vn_cnt, vn_file, vn_aux, vn_next
VERNAUX = "<IHHII"  # vna_hash, vna_flags, vna_other, vna_name, vna_next


def main(path, version):
    data = bytearray(open(path, "rb").read())
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        sys.exit(f"{path}: not a little-endian ELF64 file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    for _, kind, _, _, offset, _, link, count, _, _ in sections:
        if kind != SHT_GNU_VERNEED:
            continue
        strtab = sections[link][4]
        entry = offset
        for _ in range(count):
            _, aux_count, _, first_aux, next_entry = struct.unpack_from(VERNEED, data, entry)
            previous, at = None, entry + first_aux
            for _ in range(aux_count):
                _, _, _, name, next_aux = struct.unpack_from(VERNAUX, data, at)
                end = data.index(b"\0", strtab + name)
                if data[strtab + name:end].decode() == version:
                    if aux_count == 1:
                        sys.exit(f"{path}: {version} is the only version needed of its file")
                    following = at + next_aux if next_aux else None
                    if previous is None:  # the first: the list starts at the next one
                        struct.pack_into("<I", data, entry + 8, following - entry)
                    else:
                        link_to = following - previous if following else 0
                        struct.pack_into("<I", data, previous + 12, link_to)
                    struct.pack_into("<H", data, entry + 2, aux_count - 1)
                    open(path, "wb").write(data)
                    return
                previous, at = at, at + next_aux
            entry += next_entry
    sys.exit(f"{path}: needs no version {version}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
