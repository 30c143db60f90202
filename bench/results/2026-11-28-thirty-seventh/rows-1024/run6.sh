#!/bin/bash
# On the device: variants V and V2 (the 1024-column rows of the softmax backward tables and of the
# norms' backward alone) against final, fp16: checked, then timed interleaved, three passes.
cd "$(dirname "$0")"
out=${OUT:-.}
mkdir -p v6
ops=softmax_backward,log_softmax_backward,attention_backward,layernorm_backward,rmsnorm_backward
for v in V V2; do ./rfb-$v --op $ops --dtype fp16 --cols 512,1024,2048 --budget-ms 100 --format csv --out v6/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype fp16 --cols 1000,1023 --misalign --budget-ms 100 --format csv --out v6/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"; done
for pass in 1 2 3; do for v in final V V2; do
  ./rfb-$v --op $ops --dtype fp16 --cols 512,1000,1024,2048 --variant fused,copy --no-check --budget-ms 200 --format csv --out v6/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 - <<'PY' | tee v6/table.txt
import csv, collections
t = collections.defaultdict(list)
vs = ('final', 'V', 'V2')
for v in vs:
    for p in (1, 2, 3):
        for r in csv.DictReader(open(f"v6/time-{v}-{p}.csv")):
            if r['impl'] == 'fused':
                t[(r['op'], r['dtype'], int(r['cols']), v)].append(float(r['ratio_to_copy']))
for k in sorted({k[:3] for k in t}):
    print(*k, *("%s %s" % (v, "/".join(f"{x:.3f}" for x in t[k + (v,)])) for v in vs))
for f in ('check-V', 'check-V2', 'check-mis-V', 'check-mis-V2'):
    rs = [r for r in csv.DictReader(open(f"v6/{f}.csv")) if r['impl'] == 'fused']
    print(f, len(rs), 'fused,', sum(r['check'] != 'ok' for r in rs), 'not ok')
PY
tar czf $out/v6.tgz v6
