#!/usr/bin/env python3
"""A kernel suite (benchmarks/kernel_suite.hpp) made FACTOR times larger:
every case's work size and every buffer scaled together, local memory and
scalars kept, so that the kernels (not their launches) take the time and
index their buffers as at the original size.

    scripts/scale_suite.py SUITE FACTOR > SCALED

The scaled suite names its files as the original does: write it into the
original's directory. Only the first dimension of the work grows (a 2D
kernel gets FACTOR times more rows of groups). A kernel whose inputs decide
how much it writes (a count in a scalar) may write past its buffers at the
larger size: run-and-compare (scripts/run_compare.py) shows which.
"""
import re
import sys

BUFFER = re.compile(r'^(f32|f64|i8|u8|i16|u16|i32|u32|i64|u64)\[(\d+)')


def scaled(line, factor):
    words = line.split()
    if not words or words[0].startswith('#'):
        return line
    # name file kernel global local [options] args...
    dims = words[3].split(',')
    dims[0] = str(int(dims[0]) * factor)
    words[3] = ','.join(dims)
    words[5:] = [BUFFER.sub(lambda m: '%s[%d' % (m.group(1), int(m.group(2)) * factor), w)
                 for w in words[5:]]
    return ' '.join(words) + '\n'


def main():
    if len(sys.argv) != 3 or not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
        sys.exit('usage: scale_suite.py SUITE FACTOR (a whole number >= 1)')
    factor = int(sys.argv[2])
    with open(sys.argv[1]) as suite:
        for line in suite:
            sys.stdout.write(scaled(line, factor))


if __name__ == '__main__':
    main()
