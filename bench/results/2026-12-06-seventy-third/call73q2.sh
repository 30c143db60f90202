#!/bin/bash
# call73q2.sh: the third call (.peer-wheels/c3 and .device-carry/s98 carried): QuACK installed from
# the three parts, then QuACK (bench/peers.py) and rowfuse (rfb-V76: main's aligned kernels) on
# softmax, layernorm and rmsnorm fp16 / bf16 at the widths below, aligned, in this one call; rowfuse
# checked against unfused first, two timed passes, QuACK's own check column kept. The table: each
# cell's ratio to copy, rowfuse's mean of the passes and QuACK's.
cd "$(dirname "$0")/../../.."; C=$PWD/.device-carry/s98; d=/tmp/q73; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
cp .peer-wheels/c3/* /tmp/peer-wheels/ && export PYTHONPATH=$(bash /tmp/peer-wheels/install.sh)
cols=${COLS:-64,256,1024,4096,16384,32768,65536,131072,262144}
op="--op softmax,layernorm,rmsnorm --dtype fp16,bf16 --cols $cols"
$C/rfb-V76 $op --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check.csv > $d/check.log 2>&1
tail -n1 $d/check.log
$C/rfb-V76 $op --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-rowfuse-1.csv > /dev/null 2>&1
timeout 330 python3 bench/peers.py $op --impl quack --out $d/quack.csv --time-budget 300 2> $d/quack.log
echo "peers.py rc=$? $(($(wc -l < $d/quack.csv) - 1)) rows"; grep -E "skipped|rror" $d/quack.log | tail -3
$C/rfb-V76 $op --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-rowfuse-2.csv > /dev/null 2>&1
tar czf $OUT/call73q.tgz -C /tmp q73
python3 - $d <<'PY'
import csv, glob, sys
from collections import defaultdict
d = sys.argv[1]
rf = defaultdict(list); qk = {}
for p in glob.glob(f"{d}/time-rowfuse-*.csv"):
    for r in csv.DictReader(open(p)):
        if r["impl"] == "fused":
            rf[(r["op"], r["dtype"], int(r["cols"]))].append(float(r["ratio_to_copy"]))
for r in csv.DictReader(open(f"{d}/quack.csv")):
    if r["impl"] == "quack":
        qk[(r["op"], r["dtype"], int(r["cols"]))] = float(r["ratio_to_copy"])
print("op dtype cols rowfuse [passes] quack rowfuse-quack")
for k in sorted(rf):
    m = sum(rf[k]) / len(rf[k]); q = qk.get(k)
    print(*k, f"{m:.3f} [{min(rf[k]):.3f}-{max(rf[k]):.3f}]", f"{q:.3f} {m - q:+.3f}" if q else "-")
PY
