#!/usr/bin/env python3
"""sass_same.py A.sass B.sass: whether two `cuobjdump -sass` dumps of one translation unit built
from two trees hold the same kernels byte for byte. Prints the kernel count, how many differ, how
many of those are the same but for register numbers (each line with its encoding dropped and
every Rn read as R: the same instructions in the same order, with the same .reuse flags), and
the differing kernels' names."""
import re
import sys


def kernels(path):
    found, name, body = {}, None, []
    for line in open(path):
        if 'Function :' in line:
            if name:
                found[name] = body
            name, body = line.split('Function :')[1].strip(), []
        elif line.strip() and not re.match(r'\s*(code for|arch|code version|host|compile_size|identifier|Fatbin)', line):
            body.append(line.rstrip())
    if name:
        found[name] = body
    return found


def registers_as_one(body):
    return [re.sub(r'\bR\d+\b', 'R', re.sub(r'/\* 0x[0-9a-f]+ \*/', '', line)).strip()
            for line in body]


a, b = kernels(sys.argv[1]), kernels(sys.argv[2])
if a.keys() != b.keys():
    sys.exit(f'the dumps hold different kernels: {len(a.keys() - b.keys())} only in A, '
             f'{len(b.keys() - a.keys())} only in B')
differ = [name for name in a if a[name] != b[name]]
renumbered = [name for name in differ if registers_as_one(a[name]) == registers_as_one(b[name])]
print(f'{len(a)} kernels, {len(differ)} differ, {len(renumbered)} of them only in register numbers')
for name in differ:
    print(('  registers only: ' if name in renumbered else '  DIFFERENT: ') + name)
