#!/usr/bin/env python3
"""Time per library and per function from sampler.c's samples.

    benchmarks/profiling/report.py SAMPLES [NAME=LOCAL_FILE ...] [--top N] [--within FUNCTION]

SAMPLES is what SAMPLER_OUT named. Each NAME=LOCAL_FILE names a library or
program of the measured machine (by the end of its path there, such as
libze_cuda.so) by a copy here with symbols (the build the measured copy was
stripped from): its addresses are named with addr2line, inlined functions
by the function they were inlined into. Other libraries are named by the
exported symbol the measured machine's dladdr found, or by the library.

Printed, as shares of the samples: self time per library, self time per
function, and inclusive time per function (the samples with the function
anywhere on the stack). --within keeps only the samples whose stack holds
FUNCTION (a substring of its name), to split one call's time.
"""
import argparse
import bisect
import collections
import os
import subprocess


def read(path):
    maps, samples, exported = [], [], {}
    with open(path, errors='replace') as f:
        for line in f:
            kind, _, rest = line.partition(' ')
            if kind == 'M':
                fields = rest.split()
                if len(fields) >= 6 and 'x' in fields[1]:
                    low, high = (int(x, 16) for x in fields[0].split('-'))
                    maps.append((low, high, int(fields[2], 16), fields[5]))
            elif kind == 'S':
                samples.append([int(x, 16) for x in line.split()[1:]])
            elif kind == 'D':
                pc, name = rest.split(None, 1)
                exported[int(pc, 16)] = name.strip()
    maps.sort()
    return maps, samples, exported


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('samples')
    parser.add_argument('local', nargs='*', metavar='NAME=LOCAL_FILE')
    parser.add_argument('--top', type=int, default=30)
    parser.add_argument('--within', default=None)
    args = parser.parse_args()
    local = dict(pair.split('=', 1) for pair in args.local)
    maps, samples, exported = read(args.samples)
    starts = [m[0] for m in maps]

    # The file and offset of a frame's address. A caller's address is the
    # instruction after its call: one byte back is the call.
    def place(pc, depth):
        i = bisect.bisect_right(starts, pc) - 1
        if i >= 0 and maps[i][0] <= pc < maps[i][1]:
            low, _, offset, path = maps[i]
            return path, pc - low + offset - (1 if depth else 0)
        return '?', pc

    def copy_of(path):
        return next((copy for name, copy in local.items() if path.endswith(name)), None)

    # Our files' addresses, named in one addr2line call per file.
    wanted = collections.defaultdict(set)
    for stack in samples:
        for depth, pc in enumerate(stack):
            path, offset = place(pc, depth)
            if copy_of(path):
                wanted[path].add(offset)
    names = {}
    for path, offsets in wanted.items():
        offsets = sorted(offsets)
        lines = subprocess.run(['addr2line', '-f', '-C', '-e', copy_of(path)] +
                               ['%x' % o for o in offsets],
                               capture_output=True, text=True, check=True).stdout.split('\n')
        for i, offset in enumerate(offsets):
            names[(path, offset)] = lines[2 * i]

    def name(pc, depth):
        key = place(pc, depth)
        library = os.path.basename(key[0])
        if key in names:
            return library + ': ' + names[key]
        if pc in exported:
            return library + ': ' + exported[pc]
        return library

    own, inclusive, libraries = collections.Counter(), collections.Counter(), collections.Counter()
    kept = 0
    for stack in samples:
        frames = [name(pc, depth) for depth, pc in enumerate(stack)]
        if args.within and not any(args.within in f for f in frames):
            continue
        kept += 1
        own[frames[0]] += 1
        libraries[frames[0].split(':')[0]] += 1
        for f in set(frames):
            inclusive[f] += 1
    print('%d samples%s' % (kept, ' within ' + args.within if args.within else ''))
    if kept == 0:
        return
    for title, counts in (('self, per library', libraries), ('self', own),
                          ('inclusive', inclusive)):
        print('--- ' + title)
        for what, n in counts.most_common(args.top):
            print('%6.2f%%  %s' % (100.0 * n / kept, what[:160]))


if __name__ == '__main__':
    main()
