#!/bin/bash
# On the device: B32 (HEAD) against P1 and P2 (the norms' backward alone's fp32 rows at 33-1024
# columns, bench/NOTES.md), fp32, each build checked fused against unfused aligned and off the
# grid, then timed interleaved, three passes.
cd "$(dirname "$0")"
out=${OUT:-.}
d=call5; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
vs="B32 P1 P2"
ops=layernorm_backward,rmsnorm_backward,residual_backward
cols=32:2048,96,160,200,300
for v in $vs; do
  ./rfb-$v --op $ops --dtype fp32 --cols $cols --budget-ms 60 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype fp32 --cols 100,200,255,300,511,1000 --misalign --budget-ms 60 --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
for pass in 1 2 3; do for v in $vs; do
  ./rfb-$v --op $ops --dtype fp32 --cols $cols --variant fused,copy --no-check --budget-ms 120 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 - $vs <<'PY' | tee $d/table.txt
import csv, collections, sys
vs = sys.argv[1:]
d = 'call5'
t = collections.defaultdict(list)
for v in vs:
    for p in (1, 2, 3):
        for r in csv.DictReader(open(f"{d}/time-{v}-{p}.csv")):
            if r['impl'] == 'fused':
                t[(r['op'], r['dtype'], int(r['cols']), v)].append(float(r['ratio_to_copy']))
print("op dtype cols", *vs, "delta (mean of 3 passes; min-max)")
for k in sorted({k[:3] for k in t}):
    cells, means = [], []
    for v in vs:
        x = t.get(k + (v,), [])
        means.append(sum(x)/len(x) if x else float('nan'))
        cells.append(f"{means[-1]:.3f}[{min(x):.3f}-{max(x):.3f}]" if x else "-")
    print(*k, *cells, f"{means[-1]-means[0]:+.3f}")
for v in vs:
    for f in (f'check-{v}', f'check-mis-{v}'):
        rs = [r for r in csv.DictReader(open(f"{d}/{f}.csv")) if r['impl'] == 'fused']
        print(f, len(rs), 'fused,', sum(r['check'] != 'ok' for r in rs), 'not ok, worst', max(float(r['check_err']) for r in rs))
mis = {}
for v in vs:
    for r in csv.DictReader(open(f"{d}/check-mis-{v}.csv")):
        if r['impl'] == 'fused':
            mis.setdefault((r['op'], r['dtype'], int(r['cols'])), {})[v] = float(r['ratio_to_copy'])
print("misaligned (one checked pass each)")
for k in sorted(mis):
    print(*k, *(f"{mis[k].get(v, float('nan')):.2f}" for v in vs))
PY
tar czf $out/call5.tgz $d
