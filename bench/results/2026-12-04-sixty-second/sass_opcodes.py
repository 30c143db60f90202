#!/usr/bin/env python3
"""sass_opcodes.py A.sass B.sass PATTERN: the opcodes whose counts differ between the kernel whose
mangled name matches PATTERN (a regular expression) in two `cuobjdump -sass` dumps."""
import collections
import re
import sys


def kernel(path, pattern):
    for body in re.split(r'\n\s*Function : ', open(path).read())[1:]:
        if re.search(pattern, body.split('\n', 1)[0]):
            return body
    sys.exit(f'no kernel matches {pattern} in {path}')


def opcodes(body):
    counts = collections.Counter()
    for line in body.splitlines():
        m = re.search(r'/\*[0-9a-f]{4,6}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9]*)', line)
        if m and m.group(1) != 'NOP':
            counts[m.group(1)] += 1
    return counts


a = opcodes(kernel(sys.argv[1], sys.argv[3]))
b = opcodes(kernel(sys.argv[2], sys.argv[3]))
for op in sorted(set(a) | set(b)):
    if a[op] != b[op]:
        print(op, a[op], b[op])
print('total', sum(a.values()), sum(b.values()))
