#!/usr/bin/env python3
"""top.py SURVEY.csv [N]: for each width of a pipeline_shapes.cu survey, the N best shapes by ratio
to copy and the planned call's row ("survey_reference" is untimed)."""
import csv
import sys
from collections import defaultdict

path, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
lines = [l for l in open(path) if not l.startswith("pipeline_shapes")]
by = defaultdict(list)
for r in csv.DictReader(lines):
    try:
        ratio = float(r["ratio_to_copy"])
    except (TypeError, ValueError):
        continue
    by[(r["pipeline"], int(r["cols"]))].append(
        (ratio, r["variant"], r["shape"], r["regs"], r["blocks_per_sm"], r["local_bytes"]))
for key in sorted(by):
    cases = sorted(by[key], reverse=True)
    planned = [c for c in cases if c[1] == "planned"]
    best = cases[0][0]
    p = planned[0][0] if planned else float("nan")
    print(f"{key[0]} {key[1]}: planned {p:.3f}, best {best:.3f} ({best - p:+.3f})")
    for c in cases[:n]:
        print(f"    {c[0]:.3f} {c[1]:8s} {c[2]:45s} regs {c[3]} blocks {c[4]} local {c[5]}")
