#!/usr/bin/env python3
"""table.py DIR V...: the interleaved passes' ratios to copy by build (mean, min-max), the delta of
each build from the first, and each build's checks, from DIR/time-V-P.csv and DIR/check-*."""
import collections, csv, glob, sys

d, vs = sys.argv[1], sys.argv[2:]
t = collections.defaultdict(list)
for v in vs:
    for f in sorted(glob.glob(f"{d}/time-{v}-*.csv")):
        for r in csv.DictReader(open(f)):
            if r['impl'] == 'fused':
                t[(r['op'], r['dtype'], int(r['cols']), v)].append(float(r['ratio_to_copy']))
print("op dtype cols", *vs, *(f"{v}-{vs[0]}" for v in vs[1:]), "(mean of the passes; min-max)")
for k in sorted({k[:3] for k in t}):
    cells, means = [], []
    for v in vs:
        x = t.get(k + (v,), [])
        means.append(sum(x) / len(x) if x else float('nan'))
        cells.append(f"{means[-1]:.3f}[{min(x):.3f}-{max(x):.3f}]" if x else "-")
    print(*k, *cells, *(f"{m - means[0]:+.3f}" for m in means[1:]))
mis = {}
for v in vs:
    for f in (f'check-{v}', f'check-mis-{v}'):
        try:
            rs = [r for r in csv.DictReader(open(f"{d}/{f}.csv")) if r['impl'] == 'fused']
        except FileNotFoundError:
            continue
        print(f, len(rs), 'fused,', sum(r['check'] != 'ok' for r in rs), 'not ok, worst',
              max(float(r['check_err']) for r in rs))
        if f.startswith('check-mis'):
            for r in rs:
                mis.setdefault((r['op'], r['dtype'], int(r['cols'])), {})[v] = float(r['ratio_to_copy'])
print("misaligned (one checked pass each)")
for k in sorted(mis):
    print(*k, *(f"{mis[k].get(v, float('nan')):.2f}" for v in vs))
