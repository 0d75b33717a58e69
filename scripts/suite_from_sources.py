#!/usr/bin/env python3
"""A kernel suite (benchmarks/kernel_suite.hpp) with generic inputs for every
kernel of some OpenCL C files, for run-and-compare (scripts/run_compare.py):
the same inputs on every driver, whatever the kernel means.

    scripts/suite_from_sources.py SUITE_DIR FILE.cl... > SUITE_DIR/generic.txt

Paths in the suite are relative to SUITE_DIR. Per kernel, from its
signature: 4096 work-items in groups of 64 (or its reqd_work_group_size);
each global or constant pointer a buffer of 16384 elements of its type (64
bytes per element for a struct), floating point in [0, 1), integers in
[0, 64) so that values used as indices stay inside the buffers; integer
scalars 16 (sizes: a 3D kernel's 16^3 points stay inside the buffers),
floating-point ones 0.5; local pointers 8 KiB. A kernel that
takes what such inputs cannot give (images, samplers, structs by value,
pointers to pointers) is left out, with a comment saying why; so is one
whose signature is written with macros.
"""
import os
import re
import sys

GLOBAL = 4096
LOCAL = 64
ELEMENTS = 4 * GLOBAL
LOCAL_BYTES = 8192
# Integer scalars are mostly sizes: 16 keeps a 3D kernel's 16^3 points
# inside the buffers.
INTEGER = 16
STRUCT_BYTES = 64

SCALARS = {
    'float': 'f32', 'double': 'f64', 'half': None,
    'char': 'i8', 'uchar': 'u8', 'unsigned char': 'u8', 'signed char': 'i8',
    'short': 'i16', 'ushort': 'u16', 'unsigned short': 'u16',
    'int': 'i32', 'uint': 'u32', 'unsigned int': 'u32', 'unsigned': 'u32', 'signed int': 'i32',
    'long': 'i64', 'ulong': 'u64', 'unsigned long': 'u64',
    'size_t': 'u64', 'ptrdiff_t': 'i64', 'intptr_t': 'i64', 'uintptr_t': 'u64',
    'int32_t': 'i32', 'uint32_t': 'u32', 'int64_t': 'i64', 'uint64_t': 'u64',
    'int8_t': 'i8', 'uint8_t': 'u8', 'int16_t': 'i16', 'uint16_t': 'u16',
}
OPAQUE = ('image1d', 'image2d', 'image3d', 'sampler_t', 'event_t', 'queue_t', 'pipe', 'clk_event')
# Attributes (reqd_work_group_size) come before or after `kernel`.
KERNEL = re.compile(r'((?:__attribute__\s*\(\(.*?\)\)\s*)*)(?:__kernel|\bkernel)\s+'
                    r'((?:__attribute__\s*\(\(.*?\)\)\s*)*)void\s+(\w+)\s*\(([^)]*)\)', re.S)
REQD = re.compile(r'reqd_work_group_size\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)')
QUALIFIERS = re.compile(r'\b(__)?(const|restrict|volatile|read_only|write_only|read_write|private)\b|'
                        r'\b__restrict(__)?\b|__attribute__\s*\(\(.*?\)\)')
SPACE = re.compile(r'\b(__)?(global|local|constant)\b')


def element(type_name):
    """(suite element, count per object) of a scalar or vector type, or None."""
    m = re.fullmatch(r'([a-z_ ]+?)(2|3|4|8|16)?', type_name)
    if not m or m.group(1).strip() not in SCALARS or SCALARS[m.group(1).strip()] is None:
        return None
    width = int(m.group(2) or 1)
    return SCALARS[m.group(1).strip()], 4 if width == 3 else width


def argument(param):
    """The suite's argument for one parameter, or raises ValueError(why)."""
    text = ' '.join(re.sub(r'/\*.*?\*/', ' ', param).split())
    if any(word in text for word in OPAQUE):
        raise ValueError('takes ' + text)
    space = SPACE.search(text)
    text = SPACE.sub(' ', QUALIFIERS.sub(' ', text))
    pointer = text.count('*')
    text = ' '.join(text.replace('*', ' ').split())
    words = text.split(' ')
    if len(words) < 2:
        raise ValueError('cannot read the parameter "%s"' % param.strip())
    type_name = ' '.join(words[:-1])
    type_name = re.sub(r'^struct ', '', type_name)
    if pointer > 1:
        raise ValueError('takes a pointer to a pointer')
    kind = element(type_name)
    if pointer == 1:
        where = space.group(2) if space else 'private'
        if where == 'local':
            return 'local[%d]' % LOCAL_BYTES
        if where == 'private':
            raise ValueError('takes a private pointer')
        if kind is None:
            return 'u8[%d:0:64]' % (ELEMENTS * STRUCT_BYTES)
        name, width = kind
        count = ELEMENTS * width
        if name.startswith('f'):
            return '%s[%d]' % (name, count)
        return '%s[%d:0:64]' % (name, count)
    if kind is None:
        raise ValueError('takes a %s by value' % type_name)
    name, width = kind
    value = '0.5' if name.startswith('f') else str(INTEGER)
    return '%s=%s' % (name, ','.join([value] * width))


def cases(suite_dir, names_from, path):
    """The suite's lines for the kernels of `path`; a case's name is its file's
    path from the directory `names_from` and the kernel's name."""
    source = open(path, encoding='utf-8', errors='replace').read()
    source = re.sub(r'//[^\n]*', '', source)
    relative = os.path.relpath(path, suite_dir)
    stem = re.sub(r'\W', '_', os.path.splitext(os.path.relpath(path, names_from))[0])
    if '+' in relative or re.search(r'\s', relative):
        # A suite line separates files with '+' and fields with blanks.
        yield '# %s: left out: its path has a "+" or a blank' % relative
        return
    for before, after, kernel, params in KERNEL.findall(source):
        attributes = before + after
        name = '%s__%s' % (stem, kernel)
        try:
            if '#' in params or re.search(r'\b[A-Z_][A-Z0-9_]{2,}\b', params):
                raise ValueError('its signature is written with macros')
            args = [argument(p) for p in params.split(',') if p.strip() and p.strip() != 'void']
        except ValueError as why:
            yield '# %s: left out: %s' % (name, why)
            continue
        reqd = REQD.search(attributes)
        if reqd:
            local = [int(v) for v in reqd.groups()]
            scale = [max(1, GLOBAL // (local[0] * local[1] * local[2])), 1, 1]
            glob = [local[d] * scale[d] for d in range(3)]
            dims = 3 if local[2] > 1 else 2 if local[1] > 1 else 1
            sizes = (','.join(map(str, glob[:dims])), ','.join(map(str, local[:dims])))
        else:
            sizes = (str(GLOBAL), str(LOCAL))
        yield ' '.join([name, relative, kernel, sizes[0], sizes[1]] + args)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    suite_dir = sys.argv[1]
    print('# generic inputs (scripts/suite_from_sources.py)')
    names_from = os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in sys.argv[2:]])
    for path in sys.argv[2:]:
        for line in cases(suite_dir, names_from, os.path.abspath(path)):
            print(line)


if __name__ == '__main__':
    main()
