#!/bin/bash
# quack.sh DIR: on the device, after the calls before copied the peers' wheels, one tar split in
# seven pieces of 16.5 MB (.peer-wheels/q2/00 .. 05: `mkdir -p /tmp/pw && cp .peer-wheels/q2/0X/*
# /tmp/pw/`; a call carries at most 64 MiB with the tree), and a slim rowfuse-bench build of the ops
# into /tmp/rfb (`cp .device-carry/s49q/rfb-R /tmp/rfb`, with piece 00: round 47's build R, whose
# plans at these widths are main's), this call carrying piece 06: QuACK's softmax, rmsnorm and layernorm forward (fp16, bf16) by
# bench/peers.py on their GPU work alone, ratio to its own copy, then rowfuse's at the same widths
# (ratio to rowfuse-bench's copy), in the same lease; the table of both as DIR/table.txt.
set -u
cd "$(dirname "$0")"; R=../../..; d=$1; mkdir -p $d
cp $R/.peer-wheels/q2/06/* /tmp/pw/ && mkdir -p /tmp/peer-wheels && cat /tmp/pw/part.* | tar x -C /tmp/peer-wheels
export PYTHONPATH=$(bash /tmp/peer-wheels/install.sh)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
cols=64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144
(cd $R && PYTHONUNBUFFERED=1 python3 bench/peers.py --impl quack --op softmax,rmsnorm,layernorm --dtype fp16,bf16 \
  --cols $cols --out bench/results/2026-12-02-forty-ninth/$d/quack.csv) 2> $d/quack.log | tail -3
/tmp/rfb --op softmax,rmsnorm,layernorm --dtype fp16,bf16 --cols $cols --variant fused,copy --no-check \
  --budget-ms 30 --format csv --out $d/rowfuse.csv > /dev/null 2>&1; echo "rowfuse rc=$?"
python3 - "$d" <<'PY' | tee $d/table.txt
import csv, sys
d = sys.argv[1]
t = {}
for name, impl in (("quack", "quack"), ("rowfuse", "fused")):
    for r in csv.DictReader(open(f"{d}/{name}.csv")):
        if r.get("impl") == impl:
            t.setdefault((r["op"], r["dtype"], int(r["cols"])), {})[name] = float(r["ratio_to_copy"] or "nan")
print("op dtype cols quack rowfuse rowfuse-quack")
for k in sorted(t):
    q, f = t[k].get("quack", float("nan")), t[k].get("rowfuse", float("nan"))
    print(*k, f"{q:.3f}", f"{f:.3f}", f"{f - q:+.3f}")
PY
tar czf $OUT/$d.tgz $d
