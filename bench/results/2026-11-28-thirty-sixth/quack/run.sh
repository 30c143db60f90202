#!/bin/bash
# On the device, after .peer-wheels/a was copied to /tmp/peer-wheels in the call before: QuACK's
# layernorm (fp16, bf16) at the A/B's widths, then rowfuse's (ab_final) in the same call.
set -u
cp .peer-wheels/b/* /tmp/peer-wheels/
export PYTHONPATH=$(bash /tmp/peer-wheels/install.sh)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
python3 bench/peers.py --impl quack --op layernorm --dtype fp16,bf16 \
  --cols 2048,4096,8192,16384,20480,32768,40960,65536,131072,262144 --out $OUT/quack.csv 2> $OUT/quack.log
tail -3 $OUT/quack.log
python3 - <<'PY'
import csv, os
for r in csv.DictReader(open(os.environ["OUT"] + "/quack.csv")):
    print("quack", r["op"], r["dtype"], r["cols"], r.get("ratio_to_copy"), r.get("check"), r.get("check_err"))
PY
for pass in 1 2; do ./.device-carry/abq/ab_final time | grep "^layernorm " ; done | tee $OUT/rowfuse.txt
