#!/bin/bash
# On the device: the norms' backward GPU suites on main's final tables under ctest; then B32 (the
# fp32 tables before) against F32 (main's: the fp32 1024-column row staged for the op alone),
# fp32, checked aligned and off the grid, three passes interleaved.
cd "$(dirname "$0")"
out=${OUT:-.}
d=call6; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for s in gpu_backward_norm gpu_bad_input_backward gpu_backward_dropout; do
  echo "add_test($s \"$PWD/$s\")"
  echo "set_tests_properties($s PROPERTIES TIMEOUT 300)"
done > CTestTestfile.cmake
ctest -j3 -V > $d/ctest.log 2>&1; echo "ctest rc=$?"; grep -E "test cases:|assertions:|tests passed" $d/ctest.log
vs="B32 F32"
ops=layernorm_backward,rmsnorm_backward,residual_backward
cols=256:4096,1000
for v in $vs; do
  ./rfb-$v --op $ops --dtype fp32 --cols $cols --budget-ms 60 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype fp32 --cols 1000,1023,2047 --misalign --budget-ms 60 --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
for pass in 1 2 3; do for v in $vs; do
  ./rfb-$v --op $ops --dtype fp32 --cols $cols --variant fused,copy --no-check --budget-ms 120 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 - $vs <<'PY' | tee $d/table.txt
import csv, collections, sys
vs = sys.argv[1:]
d = 'call6'
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
tar czf $out/call6.tgz $d
