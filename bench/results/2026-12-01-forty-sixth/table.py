#!/usr/bin/env python3
"""table.py DIR A B ...: ratio to copy of each build's fused cases in DIR/time-BUILD-PASS.csv,
the mean of the passes a cell, each build after the first as its change from the first, and the
min-max of the passes."""
import csv
import glob
import sys
from collections import defaultdict

d, builds = sys.argv[1], sys.argv[2:]
cells = defaultdict(lambda: defaultdict(list))  # (op, dtype, cols) -> build -> ratios
for b in builds:
    for path in sorted(glob.glob(f"{d}/time-{b}-*.csv")):
        for r in csv.DictReader(open(path)):
            if r["impl"] == "fused":
                cells[(r["op"], r["dtype"], int(r["cols"]))][b].append(float(r["ratio_to_copy"]))
print("op dtype cols " + " ".join(builds))
for key in sorted(cells):
    row = cells[key]
    if builds[0] not in row:
        continue
    base = sum(row[builds[0]]) / len(row[builds[0]])
    out = [f"{base:.3f} [{min(row[builds[0]]):.3f}-{max(row[builds[0]]):.3f}]"]
    for b in builds[1:]:
        if b in row:
            m = sum(row[b]) / len(row[b])
            out.append(f"{m:.3f} ({m - base:+.3f}) [{min(row[b]):.3f}-{max(row[b]):.3f}]")
    print(*key, *out)
