#!/usr/bin/env python3
"""Instructions per kernel entry of PTX files, and how many of them lie in
innermost loops (a label and a branch back to it with no other such loop
inside): a figure of what a loop's trip costs, which the whole kernel's size
hides (code before a loop runs once).

    scripts/ptx_loop_sizes.py <file.ptx or directory>... > sizes.tsv

One line per entry: file, entry, instructions, instructions in innermost
loops. Two such files of the same kernels translated two ways compare line
by line (join on the first two columns).
"""
import os
import re
import sys

ENTRY = re.compile(r"\.entry\s+(\w+)\s*\(.*?\n\}", re.S)
LABEL = re.compile(r"^(\$\w+):")
BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$\w+);")


def is_instruction(line):
    # Not a label, a directive (.reg, .pragma), a brace or a comment.
    return bool(line) and line[0] not in "$.{}/"


def sizes(entry):
    lines = [line.strip() for line in entry.split("\n")]
    labels, loops = {}, []
    for n, line in enumerate(lines):
        label = LABEL.match(line)
        if label:
            labels[label.group(1)] = n
        branch = BRANCH.search(line)
        if branch and branch.group(1) in labels:
            loops.append((labels[branch.group(1)], n))
    innermost = [a for a in loops
                 if not any(b != a and a[0] <= b[0] and b[1] <= a[1] for b in loops)]

    def count(part):
        return sum(1 for line in part if is_instruction(line))

    return count(lines), sum(count(lines[a:b + 1]) for a, b in innermost)


def files(paths):
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if name.endswith(".ptx"):
                    yield os.path.join(path, name)
        else:
            yield path


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in files(sys.argv[1:]):
        text = open(path).read()
        for match in ENTRY.finditer(text):
            total, in_loops = sizes(match.group(0))
            print(f"{os.path.basename(path)}\t{match.group(1)}\t{total}\t{in_loops}")


if __name__ == "__main__":
    main()
