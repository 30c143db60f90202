#!/usr/bin/env python3
"""Static SASS size of every kernel of a binary, to compare two builds of the same kernels.

  cuobjdump -sass BINARY | sass_sizes.py OUT.csv [PATTERN OUT.sass]

Writes OUT.csv (kernel, instructions: the SASS lines of the function, NOPs left out, an unrolled
row loop's instruction count in all but name) and, with PATTERN, the SASS of the kernels whose
names contain every comma-separated part of it into OUT.sass.
"""
import re
import sys

name, counts, kept, keep = None, {}, [], False
parts = sys.argv[2].split(",") if len(sys.argv) > 3 else None
for line in sys.stdin:
    header = re.match(r"\s*Function : (\S+)", line)
    if header:
        name = header.group(1)
        counts[name] = 0
        keep = parts is not None and all(p in name for p in parts)
    elif name and re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+\S", line) and " NOP" not in line:
        counts[name] += 1
    if keep:
        kept.append(line)
with open(sys.argv[1], "w") as out:
    out.write("kernel,instructions\n")
    for kernel, count in sorted(counts.items()):
        out.write(f"{kernel},{count}\n")
if parts is not None:
    open(sys.argv[3], "w").writelines(kept)
