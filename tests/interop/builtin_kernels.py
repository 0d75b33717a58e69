#!/usr/bin/env python3
"""One kernel per builtin name that clang's opencl-c.h declares.

Usage: builtin_kernels.py <opencl-c.h> <output.tsv>

Each output line is "<builtin>\t<kernel source>", the kernel "k_<builtin>"
calling the builtin once with arguments of its parameter types and storing
the result through its one global pointer argument. Only declarations whose
return and parameter types are scalars, vectors of them or pointers to them
are taken (images, events, samplers, pipes and the Intel AVC types are left
out); of a name's overloads the first without half is used, since a device
without cl_khr_fp16 refuses half, and the test is about the builtin.
"""
import re
import sys

SCALARS = {'char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong',
           'float', 'double', 'half', 'size_t', 'bool'}
ADDRESS_SPACES = ('__global', '__local', '__private', '__constant', '__generic')
DECLARATION = re.compile(
    r'^\s*([A-Za-z_][\w ]*?)\s+__ovld(?:\s+__\w+)*\s+(\w+)\s*\(([^;{]*)\)\s*;', re.M)
# "[address space] [const] [volatile] base[N] [*]"
TYPE = re.compile(r'^(?:(__\w+)\s+)?(\w+?)(2|3|4|8|16)?\s*(\*)?$')


def strip_qualifiers(text):
    return re.sub(r'\b(const|volatile)\b', '', text).strip()


def parse_type(text):
    """(address space or None, type, is pointer) or None if not plain."""
    m = TYPE.match(' '.join(strip_qualifiers(text).split()))
    if not m or m.group(2) not in SCALARS:
        return None
    space = m.group(1)
    if space is not None and space not in ADDRESS_SPACES:
        return None
    return space, m.group(2) + (m.group(3) or ''), m.group(4) is not None


def drop_parameter_name(text):
    text = text.strip()
    return re.sub(r'\s+\w+$', '', text) if re.search(r'[\w*]\s+\w+$', text) else text


def kernel(name, result, parameters):
    declarations, arguments = [], []
    for i, (space, type_, pointer) in enumerate(parameters):
        if not pointer:
            declarations.append(f'{type_} v{i} = ({type_})(1);')
            arguments.append(f'v{i}')
        elif space == '__global':
            arguments.append(f'(__global {type_} *)g')
        elif space == '__local':
            declarations.append(f'__local {type_} l{i}[4];')
            arguments.append(f'l{i}')
        elif space == '__constant':
            arguments.append(f'(__constant {type_} *)0')
        else:  # private or generic
            declarations.append(f'{type_} v{i}[4];')
            arguments.append(f'v{i}')
    call = f'{name}({", ".join(arguments)})'
    body = ' '.join(declarations)
    if result == 'void':
        body += f' {call};'
    else:
        body += f' {result} r = {call}; *(__global {result} *)g = r;'
    return f'kernel void k_{name}(__global void *g) {{ {body} }}'


def main():
    header, output = sys.argv[1], sys.argv[2]
    text = open(header).read()
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    text = re.sub(r'//[^\n]*', '', text)
    chosen = {}  # name -> (result, parameters, mentions half)
    for m in DECLARATION.finditer(text):
        result_text = re.sub(r'\b__\w+\b', '', m.group(1)).strip()
        name, parameter_text = m.group(2), m.group(3).strip()
        if result_text == 'void':
            result = 'void'
        else:
            parsed = parse_type(result_text)
            if parsed is None or parsed[2]:
                continue
            result = parsed[1]
        parameters = []
        if parameter_text not in ('', 'void'):
            parameters = [parse_type(drop_parameter_name(p)) for p in parameter_text.split(',')]
            if None in parameters:
                continue
        half = 'half' in result or any('half' in p[1] for p in parameters)
        if name not in chosen or (chosen[name][2] and not half):
            chosen[name] = (result, parameters, half)
    with open(output, 'w') as out:
        for name, (result, parameters, _) in chosen.items():
            out.write(f'{name}\t{kernel(name, result, parameters)}\n')


if __name__ == '__main__':
    main()
