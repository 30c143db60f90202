#!/usr/bin/env python3
"""sass_compare.py A.sass B.sass: the kernels whose SASS differs between two `cuobjdump -sass`
dumps of the same translation unit built from two trees. For each: instruction count (NOPs
left out) A -> B and the counts of stores, MOVs, global loads and local-memory (spill) accesses
that differ; the last line counts the kernels alike in both (same instruction count and counts)."""
import collections
import re
import subprocess
import sys

COUNTED = r'\b(STG\.E(?:\.[A-Z0-9]+)?|MOV|LDG\.E(?:\.[A-Z0-9]+)?|LDL[.A-Z0-9]*|STL[.A-Z0-9]*)\b'
INSTRUCTION = r'/\*[0-9a-f]{4,6}\*/\s+[@A-Z]'


def kernels(path):
    found = {}
    for body in re.split(r'\n\s*Function : ', open(path).read())[1:]:
        name = body.split('\n', 1)[0].strip()
        counts = collections.Counter(m.group(1) for m in re.finditer(COUNTED, body))
        length = len([line for line in body.splitlines()
                      if re.search(INSTRUCTION, line) and ' NOP' not in line])
        found[name] = (length, counts)
    return found


def readable(name):
    text = subprocess.run(['c++filt'], input=name, capture_output=True, text=True).stdout.strip()
    return text.replace('rowfuse::', '').replace('(tuning::column_placement)', 'cp')


a, b = kernels(sys.argv[1]), kernels(sys.argv[2])
alike = 0
for name, (length_a, counts_a) in a.items():
    if name not in b:
        print('only in A:', readable(name)[:150])
        continue
    length_b, counts_b = b[name]
    if (length_a, counts_a) == (length_b, counts_b):
        alike += 1
        continue
    moved = {k: (counts_a[k], counts_b[k]) for k in sorted(set(counts_a) | set(counts_b))
             if counts_a[k] != counts_b[k]}
    print(length_a, '->', length_b, moved, readable(name)[:150])
print('same', alike, 'of', len(a))
