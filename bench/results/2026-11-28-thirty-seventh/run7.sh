#!/bin/bash
# On the device: the GPU suites of the backward ops and the attention backward example on main's
# final tables, then final (the norms' alone rows, 58b8a3f) against final2 (main: the 1024-column
# rows too), every backward op, fp32 / fp16 / bf16, checked aligned and off the grid, timed
# interleaved, three passes.
cd "$(dirname "$0")"
out=${OUT:-.}
mkdir -p final2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee final2/device.txt
for s in gpu_backward_softmax gpu_backward_norm gpu_bad_input_backward gpu_backward_dropout example_attention_backward; do
  timeout 200 ./$s > final2/$s.txt 2>&1; echo "$s rc=$?"; tail -3 final2/$s.txt
done
ops=softmax_backward,log_softmax_backward,attention_backward,layernorm_backward,rmsnorm_backward,residual_backward
for v in final final2; do
  ./rfb-$v --op $ops --cols 256:262144 --budget-ms 100 --format csv --out final2/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --cols 300,1000,1023,2047,4097,8191,32767,50001 --misalign --budget-ms 100 --format csv --out final2/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
for pass in 1 2 3; do for v in final final2; do
  ./rfb-$v --op $ops --cols 256:262144 --variant fused,copy --no-check --budget-ms 150 --format csv --out final2/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 - <<'PY' | tee final2/table.txt
import csv, collections
t = collections.defaultdict(list)
vs = ('final', 'final2')
for v in vs:
    for p in (1, 2, 3):
        for r in csv.DictReader(open(f"final2/time-{v}-{p}.csv")):
            if r['impl'] == 'fused':
                t[(r['op'], r['dtype'], int(r['cols']), v)].append(float(r['ratio_to_copy']))
print("cells that moved by 0.01 or more (op dtype cols final final2 delta); all cells in final2/time-*")
n = 0
for k in sorted({k[:3] for k in t}):
    b, m = t.get(k + ('final',), []), t.get(k + ('final2',), [])
    if not b or not m:
        print(*k, 'missing', len(b), len(m)); continue
    n += 1
    d = sum(m)/len(m) - sum(b)/len(b)
    if abs(d) >= 0.01:
        print(*k, "/".join(f"{x:.3f}" for x in b), "/".join(f"{x:.3f}" for x in m), f"{d:+.3f}")
print(n, "cells")
for f in ('check-final', 'check-final2', 'check-mis-final', 'check-mis-final2'):
    rs = [r for r in csv.DictReader(open(f"final2/{f}.csv")) if r['impl'] == 'fused']
    print(f, len(rs), 'fused,', sum(r['check'] != 'ok' for r in rs), 'not ok, worst', max(float(r['check_err']) for r in rs))
mis = {}
for v in vs:
    for r in csv.DictReader(open(f"final2/check-mis-{v}.csv")):
        if r['impl'] == 'fused':
            mis.setdefault((r['op'], r['dtype'], int(r['cols'])), {})[v] = float(r['ratio_to_copy'])
print("misaligned cells that moved by 0.02 or more (one checked pass each)")
for k in sorted(mis):
    if len(mis[k]) == 2 and abs(mis[k]['final2'] - mis[k]['final']) >= 0.02:
        print(*k, f"{mis[k]['final']:.2f}", f"{mis[k]['final2']:.2f}")
PY
tar czf $out/final2.tgz final2
