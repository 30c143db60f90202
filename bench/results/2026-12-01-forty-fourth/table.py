#!/usr/bin/env python3
"""table.py DIR A B [C ...]: mean ratio to copy of each build over DIR/time-BUILD-PASS.csv, and
each build's change from the first, by op, dtype and width; min-max of the passes beside it."""
import collections, csv, glob, sys

d, builds = sys.argv[1], sys.argv[2:]
ratio = collections.defaultdict(list)  # (build, op, dtype, cols) -> ratios over passes
for b in builds:
    for f in sorted(glob.glob(f"{d}/time-{b}-*.csv")):
        for r in csv.reader(open(f)):
            if len(r) < 14 or r[5] != "fused":
                continue
            ratio[(b, r[4], r[6], int(r[8]))].append(float(r[13]))
keys = sorted({k[1:] for k in ratio})
print("op dtype cols " + " ".join(builds) + " " + " ".join(f"{b}-{builds[0]}" for b in builds[1:]))
for op, dt, c in keys:
    m = [sum(ratio[(b, op, dt, c)]) / max(len(ratio[(b, op, dt, c)]), 1) for b in builds]
    spread = " ".join(f"[{min(ratio[(b, op, dt, c)] or [0]):.3f}-{max(ratio[(b, op, dt, c)] or [0]):.3f}]" for b in builds)
    print(f"{op} {dt} {c} " + " ".join(f"{x:.3f}" for x in m) + " " +
          " ".join(f"{x - m[0]:+.3f}" for x in m[1:]) + "  " + spread)
