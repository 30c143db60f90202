#!/bin/bash
# On the device, after .peer-wheels/a was copied to /tmp/peer-wheels in the call before: QuACK's
# rmsnorm backward (fp16) at 64-65536 columns, its GPU work alone.
set -u
cp .peer-wheels/b/* /tmp/peer-wheels/
export PYTHONPATH=$(bash /tmp/peer-wheels/install.sh)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
python3 bench/peers.py --impl quack --op rmsnorm_backward --dtype fp16 \
  --cols 64:65536 --out $OUT/quack.csv 2> $OUT/quack.log
tail -3 $OUT/quack.log
python3 - <<'PY'
import csv, os
for r in csv.DictReader(open(os.environ["OUT"] + "/quack.csv")):
    print("quack", r["op"], r["dtype"], r["cols"], r.get("ratio_to_copy"), r.get("check"), r.get("check_err"))
PY
