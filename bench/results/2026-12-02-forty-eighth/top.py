#!/usr/bin/env python3
"""top.py DIR [N]: row_shapes.cu output in DIR (r*-PASS.txt): per op and width, each case's mean
ratio over the passes, the first case of each width's list (the table's row, or its shape) and
the N best."""
import collections, glob, re, sys
d = sys.argv[1]; top = int(sys.argv[2]) if len(sys.argv) > 2 else 4
runs = collections.defaultdict(list); order = {}
for f in sorted(glob.glob(f'{d}/r*-*.txt')):
    for line in open(f):
        m = re.match(r'(\S+)\s+(fp16|fp32)\s+(\d+) (.*?) regs\s+(\d+) spill\s+(\d+) occ\s+(\d+) grid\s+\d+ ratio ([\d.]+)', line)
        if not m: continue
        op, dt, cols, case, regs, spill, occ, r = m.groups()
        key = (op, dt, int(cols)); case = ' '.join(case.split()) + f' r{regs} s{spill} o{occ}'
        runs[key, case].append(float(r)); order.setdefault(key, []).append(case) if case not in order.get(key, []) else None
for key in sorted(order):
    cases = [(sum(runs[key, c]) / len(runs[key, c]), c) for c in order[key]]
    first = [c for c in cases if c[1].split()[:5] == order[key][0].split()[:5]]
    print(f'{key[0]} {key[1]} {key[2]}: first {max(first)[0]:.3f} ({max(first)[1]})')
    for r, c in sorted(cases, reverse=True)[:top]:
        print(f'   {r:.3f} {c}')
