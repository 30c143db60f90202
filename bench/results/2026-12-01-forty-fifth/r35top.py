#!/usr/bin/env python3
"""r35top.py ROUND.txt [N]: the N best shapes a width of a row_shapes.cu output, by ratio to copy."""
import re
import sys
from collections import defaultdict

path, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
by = defaultdict(list)
for line in open(path):
    m = re.match(r"(\S+)\s+(fp\d+)\s+(\d+)\s+(.*?)regs\s+(\d+)\s+spill\s+(\d+)\s+occ\s+(\d+)\s+grid\s+\d+\s+ratio\s+([\d.]+)", line)
    if m:
        by[(m[1], int(m[3]))].append((float(m[8]), " ".join(m[4].split()), m[5], m[6], m[7]))
for key in sorted(by):
    print(*key)
    for r in sorted(by[key], reverse=True)[:n]:
        print(f"    {r[0]:.3f} {r[1]:40s} regs {r[2]} spill {r[3]} occ {r[4]}")
