#!/bin/bash
# quack.sh DIR: on the device, after .peer-wheels/q/aa .. ac were copied to /tmp/pw by the three
# calls before (the peers' wheels as one tar in four pieces: each call carries at most 64 MiB with
# the tree): QuACK's softmax, rmsnorm and layernorm forward (fp16, bf16) on their GPU work alone
# (bench/peers.py), then rowfuse's ops alone (main and this session's tables, the ops slim
# builds), ratio to copy each, in the same lease.
set -u
cd "$(dirname "$0")"; R=../../..; d=$1; mkdir -p $d
cp $R/.peer-wheels/q/ad/* /tmp/pw/ && mkdir -p /tmp/peer-wheels && cat /tmp/pw/part.* | tar x -C /tmp/peer-wheels
export PYTHONPATH=$(bash /tmp/peer-wheels/install.sh)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
cols=512,16384,32768,65536,131072,262144
(cd $R && PYTHONUNBUFFERED=1 python3 bench/peers.py --impl quack --op softmax,rmsnorm,layernorm --dtype fp16,bf16 \
  --cols $cols --out bench/results/2026-12-01-forty-fifth/$d/quack.csv) 2> $d/quack.log | tail -3
C=$R/.device-carry/s45q
for v in W4-ops; do
  $C/rfb-$v --op softmax,rmsnorm,layernorm --dtype fp16,bf16 --cols $cols --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/rowfuse-$v.csv > /dev/null 2>&1
done
tar czf $OUT/$d.tgz $d
python3 - "$d" <<'PY'
import csv, sys
d = sys.argv[1]
t = {}
for name in ("quack", "rowfuse-M-ops", "rowfuse-W4-ops"):
    try:
        for r in csv.DictReader(open(f"{d}/{name}.csv")):
            if r.get("impl") in ("quack", "fused"):
                t.setdefault((r["op"], r["dtype"], int(r["cols"])), {})[name] = float(r["ratio_to_copy"] or "nan")
    except FileNotFoundError:
        print("missing", name)
print("op dtype cols quack main this-session")
for k in sorted(t):
    v = t[k]
    print(*k, *(f"{v.get(n, float('nan')):.3f}" for n in ("quack", "rowfuse-M-ops", "rowfuse-W4-ops")))
PY
