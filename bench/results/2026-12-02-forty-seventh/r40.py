#!/usr/bin/env python3
"""r40.py DIR: round 40's cases (row_shapes.cu output, two passes) by op, type and width: each
case's mean ratio over the passes, best first, the binary's suffix o marking one exchange a row.
Lines: op dtype cols | ratio [pass1 pass2] binary shape regs spill occ."""
import collections, glob, re, sys
d = sys.argv[1]
top = int(sys.argv[2]) if len(sys.argv) > 2 else 6
cases = collections.defaultdict(list)
meta = {}
for f in sorted(glob.glob(f"{d}/time*-*.txt")):
    part = re.search(r"time(\w+?)-(\d)\.txt", f).group(1)
    for line in open(f):
        m = re.match(r"(\S+)\s+(fp32|fp16)\s+(\d+)\s+(.*?) regs\s+(\d+) spill\s+(\d+) occ\s+(\d+) grid\s+\d+ ratio ([\d.]+)", line)
        if not m:
            continue
        op, dt, cols, shape, regs, spill, occ, r = m.groups()
        dt = dt if not part.startswith("1") or part.startswith("15") else dt  # parts keep their dtype
        key = (op, dt, int(cols), part.endswith("o"), " ".join(shape.split()))
        cases[key].append(float(r))
        meta[key] = (regs, spill, occ)
groups = collections.defaultdict(list)
for key, rs in cases.items():
    groups[key[:3]].append((sum(rs) / len(rs), key, rs))
for g in sorted(groups):
    rows = sorted(groups[g], key=lambda t: -t[0])
    print(" ".join(map(str, g)))
    for mean, key, rs in rows[:top]:
        regs, spill, occ = meta[key]
        print(f"   {mean:.3f} [{' '.join(f'{r:.3f}' for r in rs)}] {'once ' if key[3] else 'twice'} {key[4]} regs {regs} spill {spill} occ {occ}")
