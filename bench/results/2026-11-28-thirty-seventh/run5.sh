#!/bin/bash
# On the device: the three GPU suites of the norms' backward on main's final tables, then base
# (HEAD before the change) against final, fp32 / fp16 / bf16, checked (aligned and misaligned)
# and timed interleaved, fused and copy, three passes.
cd "$(dirname "$0")"
out=${OUT:-.}
mkdir -p final; rm -f final/*.csv
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee final/device.txt
for s in; do
  timeout 240 ./gpu_$s > final/gpu_$s.txt 2>&1; echo "gpu_$s rc=$?"; tail -3 final/gpu_$s.txt
done
ops=layernorm_backward,rmsnorm_backward,residual_backward
for v in base final; do
  ./rfb-$v --op $ops --cols 256:262144 --budget-ms 100 --format csv --out final/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --cols 1000,2047,4097,8191,16383,32767,40000,50001,65535 --misalign --budget-ms 100 --format csv --out final/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
for pass in 1 2 3; do for v in base final; do
  ./rfb-$v --op $ops,softmax_backward --cols 256:262144 --variant fused,copy --no-check --budget-ms 200 --format csv --out final/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 - <<'PY' | tee final/table.txt
import csv, collections
t = collections.defaultdict(list)
vs = ('base', 'final')
for v in vs:
    for p in (1, 2, 3):
        for r in csv.DictReader(open(f"final/time-{v}-{p}.csv")):
            if r['impl'] == 'fused':
                t[(r['op'], r['dtype'], int(r['cols']), v)].append(float(r['ratio_to_copy']))
print("op dtype cols base(p1/p2/p3) final(p1/p2/p3) mean-delta")
for k in sorted({k[:3] for k in t}):
    b, n = t.get(k + ('base',), []), t.get(k + ('final',), [])
    if not b or not n:
        print(*k, 'missing', len(b), len(n)); continue
    d = sum(n)/len(n)-sum(b)/len(b)
    print(*k, "/".join(f"{x:.3f}" for x in b), "/".join(f"{x:.3f}" for x in n), f"{d:+.3f}", "<<" if abs(d) >= 0.01 else "")
for f in ('check-base', 'check-final', 'check-mis-base', 'check-mis-final'):
    rs = [r for r in csv.DictReader(open(f"final/{f}.csv")) if r['impl'] == 'fused']
    print(f, len(rs), 'fused,', sum(r['check'] != 'ok' for r in rs), 'not ok, worst', max(float(r['check_err']) for r in rs))
mis = {}
for v in vs:
    for r in csv.DictReader(open(f"final/check-mis-{v}.csv")):
        if r['impl'] == 'fused':
            mis.setdefault((r['op'], r['dtype'], int(r['cols'])), {})[v] = float(r['ratio_to_copy'])
print("misaligned (one pass, checked run): op dtype cols base final")
for k in sorted(mis):
    if len(mis[k]) < 2:
        print(*k, 'missing', mis[k]); continue
    d = mis[k]['final'] - mis[k]['base']
    print(*k, f"{mis[k]['base']:.2f}", f"{mis[k]['final']:.2f}", "<<" if abs(d) >= 0.02 else "")
PY
tar czf $out/final5.tgz final
