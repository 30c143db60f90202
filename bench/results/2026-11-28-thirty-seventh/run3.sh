#!/bin/bash
# On the device: the two GPU suites of the norms' backward on the final tables, then base (HEAD)
# against final, checked (aligned and misaligned) and timed interleaved, fused and copy, three
# passes, fp16 and bf16.
cd "$(dirname "$0")"
out=${OUT:-.}
mkdir -p logs3
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee logs3/device.txt
./gpu_backward_norm > logs3/gpu_backward_norm.txt 2>&1; echo "backward_norm rc=$?"; tail -3 logs3/gpu_backward_norm.txt
./gpu_bad_input_backward > logs3/gpu_bad_input_backward.txt 2>&1; echo "bad_input_backward rc=$?"; tail -3 logs3/gpu_bad_input_backward.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
for v in base final; do
  ./rfb-$v --op $ops --dtype fp16,bf16 --cols 256:262144 --budget-ms 100 --format csv --out logs3/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype fp16,bf16 --cols 1000,2047,4097,8191,32767,40000,50001,65535 --misalign --budget-ms 100 --format csv --out logs3/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
for pass in 1 2 3; do for v in base final; do
  ./rfb-$v --op $ops,softmax_backward --dtype fp16,bf16 --cols 256:262144 --variant fused,copy --no-check --budget-ms 200 --format csv --out logs3/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 - <<'PY' | tee logs3/table.txt
import csv, collections
t = collections.defaultdict(list)
vs = ('base', 'final')
for v in vs:
    for p in (1, 2, 3):
        for r in csv.DictReader(open(f"logs3/time-{v}-{p}.csv")):
            if r['impl'] == 'fused':
                t[(r['op'], r['dtype'], int(r['cols']), v)].append(float(r['ratio_to_copy']))
print("op dtype cols base(p1/p2/p3) final(p1/p2/p3) mean-delta")
for k in sorted({k[:3] for k in t}):
    b, n = t[k + ('base',)], t[k + ('final',)]
    print(*k, "/".join(f"{x:.3f}" for x in b), "/".join(f"{x:.3f}" for x in n), f"{sum(n)/len(n)-sum(b)/len(b):+.3f}")
PY
python3 - <<'PY' | tee logs3/checks.txt
import csv
for f in ('check-base', 'check-final', 'check-mis-base', 'check-mis-final'):
    rs = [r for r in csv.DictReader(open(f"logs3/{f}.csv")) if r['impl'] == 'fused']
    print(f, len(rs), 'fused,', sum(r['check'] != 'ok' for r in rs), 'not ok, worst', max(float(r['check_err']) for r in rs))
    if 'mis' in f:
        print('  ', ' '.join(f"{r['op'][:4]}{r['dtype']}@{r['cols']}={float(r['ratio_to_copy']):.2f}" for r in rs))
PY
tar czf $out/logs3.tgz logs3
# fp32: variant Y (gradient_32bit at 16384 / 32768 / 65536 on 2 x 1024 in 2, 1 x 1024 in 8,
# 2 x 1024 in 8, one block an SM) against base32 (HEAD), checked then timed interleaved.
mkdir -p logs4
ops32=layernorm_backward,rmsnorm_backward,residual_backward
for v in base32 Y; do
  ./rfb-$v --op $ops32 --dtype fp32 --cols 8192:131072 --budget-ms 100 --format csv --out logs4/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops32 --dtype fp32 --cols 16383,32767,50001 --misalign --budget-ms 100 --format csv --out logs4/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
for pass in 1 2 3; do for v in base32 Y; do
  ./rfb-$v --op $ops32 --dtype fp32 --cols 8192:131072 --variant fused,copy --no-check --budget-ms 200 --format csv --out logs4/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 - <<'PY' | tee logs4/table.txt
import csv, collections
t = collections.defaultdict(list)
vs = ('base32', 'Y')
for v in vs:
    for p in (1, 2, 3):
        for r in csv.DictReader(open(f"logs4/time-{v}-{p}.csv")):
            if r['impl'] == 'fused':
                t[(r['op'], r['dtype'], int(r['cols']), v)].append(float(r['ratio_to_copy']))
for k in sorted({k[:3] for k in t}):
    b, n = t[k + ('base32',)], t[k + ('Y',)]
    print(*k, "/".join(f"{x:.3f}" for x in b), "/".join(f"{x:.3f}" for x in n), f"{sum(n)/len(n)-sum(b)/len(b):+.3f}")
for f in ('check-base32', 'check-Y', 'check-mis-base32', 'check-mis-Y'):
    rs = [r for r in csv.DictReader(open(f"logs4/{f}.csv")) if r['impl'] == 'fused']
    print(f, len(rs), 'fused,', sum(r['check'] != 'ok' for r in rs), 'not ok, worst', max(float(r['check_err']) for r in rs),
          ' '.join(f"{r['op'][:4]}@{r['cols']}={float(r['ratio_to_copy']):.2f}" for r in rs) if 'mis' in f else '')
PY
tar czf $out/logs4.tgz logs4
