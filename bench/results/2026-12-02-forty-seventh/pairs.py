#!/usr/bin/env python3
"""pairs.py DIR [TOP] [ROUND]: round 40's (or 41's) widths in pairs (a width just past a row's capacity and the row's own
capacity, as the round sweeps them): for each op and pair, the cases (shape, exchange, staging,
grid) timed at both, by their mean over both widths and passes, best first."""
import collections, glob, re, sys
d = sys.argv[1]; top = int(sys.argv[2]) if len(sys.argv) > 2 else 4
round41 = len(sys.argv) > 3 and sys.argv[3] == "41"
pairs16 = [(20488, 24576), (24584, 28672), (40968, 49152), (49160, 57344), (81928, 98304), (98312, 114688), (163848, 196608), (196616, 229376)]
pairs32 = [(8200, 10240), (12288,), (24584, 28672), (32776, 40960), (49160, 57344), (65544, 81920), (98312, 114688), (131080, 163840), (196616, 229376)]
if round41:
    pairs16 = [(8200, 10240), (12288,), (16384,), (20488, 24576), (24584, 28672), (32768,), (40968, 49152), (65536,), (81928, 98304), (131072,), (163848, 196608), (262144,)]
    pairs32 = [(8200, 10240), (12288, 16384), (24584, 28672), (32768,), (32776, 40960), (49160, 57344), (65536,), (65544, 81920), (98312, 114688), (131072,), (131080, 163840), (196616, 229376), (262144,)]
r = collections.defaultdict(list)
for f in sorted(glob.glob(f"{d}/time*-*.txt")):
    part = re.search(r"time(\w+?)-(\d)\.txt", f).group(1)
    for line in open(f):
        m = re.match(r"(\S+)\s+(fp32|fp16)\s+(\d+)\s+(.*?) regs\s+(\d+) spill\s+(\d+) occ\s+(\d+) grid\s+\d+ ratio ([\d.]+)", line)
        if m:
            op, dt, cols, shape, regs, spill, occ, ratio = m.groups()
            r[(op, dt, int(cols), ("once " if part.endswith("o") else "twice") + " " + " ".join(shape.split()))].append(float(ratio))
ops = sorted({(k[0], k[1]) for k in r})
for op, dt in ops:
    for pair in (pairs16 if dt == "fp16" else pairs32):
        keys = {k[3] for k in r if k[:2] == (op, dt) and k[2] == pair[0]}
        rows = []
        for s in keys:
            vals = [sum(r[(op, dt, c, s)]) / len(r[(op, dt, c, s)]) for c in pair if (op, dt, c, s) in r]
            if len(vals) == len(pair):
                rows.append((sum(vals) / len(vals), vals, s))
        rows.sort(key=lambda t: -t[0])
        print(op, dt, pair)
        for mean, vals, s in rows[:top]:
            print(f"   {mean:.3f} {' '.join(f'{v:.3f}' for v in vals)}  {s}")
