#!/bin/bash
# On the device, right after QuACK's call: rowfuse (main's final tables, rfb-final) on the same
# cases, two passes.
cd "$(dirname "$0")"
for pass in 1 2; do
  ./rfb-final --op rmsnorm_backward,softmax_backward --dtype fp16,bf16 --cols 256:65536 --budget-ms 200 --variant fused,copy --no-check --format csv --out $OUT/rowfuse-$pass.csv > /dev/null 2>&1
done
python3 - <<'PY'
import csv, os
t = {}
for p in (1, 2):
    for r in csv.DictReader(open(os.environ["OUT"] + f"/rowfuse-{p}.csv")):
        if r['impl'] == 'fused':
            t.setdefault((r['op'], r['dtype'], r['cols']), []).append(float(r['ratio_to_copy']))
for k, v in t.items():
    print("rowfuse", *k, "/".join(f"{x:.3f}" for x in v))
PY
