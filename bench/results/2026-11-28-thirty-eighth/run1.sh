#!/bin/bash
# On the device: base (HEAD), V1, V2 (the norms' backward alone at 256 / 512 / 32768), V3 (the
# chained table's 32768 row: the residual block's backward), fp16; each build checked fused
# against unfused aligned and off the grid, then timed interleaved, three passes.
cd "$(dirname "$0")"
out=${OUT:-.}
d=call1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
vs="base V1 V2 V3"
ops=layernorm_backward,rmsnorm_backward,residual_backward
for v in $vs; do
  ./rfb-$v --op $ops --dtype fp16 --cols 64:65536 --budget-ms 60 --format csv --out $d/check-$v.csv > $d/check-$v.log 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype fp16 --cols 255,300,511,1000,16383,32767 --misalign --budget-ms 60 --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
for pass in 1 2 3; do for v in $vs; do
  ./rfb-$v --op $ops --dtype fp16 --cols 64:65536 --variant fused,copy --no-check --budget-ms 120 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 - $vs <<'PY' | tee $d/table.txt
import csv, collections, sys
vs = sys.argv[1:]
d = 'call1'
t = collections.defaultdict(list)
for v in vs:
    for p in (1, 2, 3):
        for r in csv.DictReader(open(f"{d}/time-{v}-{p}.csv")):
            if r['impl'] == 'fused':
                t[(r['op'], int(r['cols']), v)].append(float(r['ratio_to_copy']))
print("op cols", *vs, "(mean of 3 passes; min-max)")
for k in sorted({k[:2] for k in t}):
    cells = []
    for v in vs:
        x = t.get(k + (v,), [])
        cells.append(f"{sum(x)/len(x):.3f}[{min(x):.3f}-{max(x):.3f}]" if x else "-")
    print(*k, *cells)
for v in vs:
    for f in (f'check-{v}', f'check-mis-{v}'):
        rs = [r for r in csv.DictReader(open(f"{d}/{f}.csv")) if r['impl'] == 'fused']
        print(f, len(rs), 'fused,', sum(r['check'] != 'ok' for r in rs), 'not ok, worst', max(float(r['check_err']) for r in rs))
mis = {}
for v in vs:
    for r in csv.DictReader(open(f"{d}/check-mis-{v}.csv")):
        if r['impl'] == 'fused':
            mis.setdefault((r['op'], int(r['cols'])), {})[v] = float(r['ratio_to_copy'])
print("misaligned (one checked pass each)")
for k in sorted(mis):
    print(*k, *(f"{mis[k].get(v, float('nan')):.2f}" for v in vs))
PY
tar czf $out/call1.tgz $d
