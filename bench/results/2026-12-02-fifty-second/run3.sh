#!/bin/bash
# run3.sh: on the device, main's slim rowfuse-bench of the four ops (.device-carry/s52w/rfb-N,
# fp16 / bf16) at the narrow widths between the powers of two and off them, aligned and with
# every view one element off (--misalign), two passes; checked against unfused first. Into
# $OUT/call8.tgz, and the ratios to copy.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s52w; d=/tmp/call8; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op softmax,log_softmax,rmsnorm,layernorm --dtype fp16,bf16"
W=33,40,48,56,60,63,64,72,80,88,100,127,128,200,255,256
$C/rfb-N $op --cols $W --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check.csv > $d/check.log 2>&1
$C/rfb-N $op --cols $W --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis.csv > $d/check-mis.log 2>&1
tail -qn1 $d/check.log $d/check-mis.log
for pass in 1 2; do
  $C/rfb-N $op --cols $W --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$pass.csv > /dev/null 2>&1
  $C/rfb-N $op --cols $W --variant fused,copy --no-check --budget-ms 30 --misalign --format csv --out $d/time-mis-$pass.csv > /dev/null 2>&1
  echo "pass $pass rc=$?"
done
tar czf $OUT/call8.tgz -C /tmp call8
python3 - $d <<'PY'
import csv, glob, sys, collections
d = sys.argv[1]
cells = collections.defaultdict(list)
for path in glob.glob(f"{d}/time-*.csv"):
    layout = "mis" if "mis" in path else "al"
    for r in csv.DictReader(open(path)):
        if r["impl"] == "fused":
            cells[(r["op"], r["dtype"], layout, int(r["cols"]))].append(float(r["ratio_to_copy"]))
keys = sorted(cells)
widths = sorted({k[3] for k in keys})
print("op dtype layout " + " ".join(map(str, widths)))
for op, dt, lay in sorted({k[:3] for k in keys}):
    print(op, dt, lay, " ".join(f"{sum(cells[(op, dt, lay, w)]) / len(cells[(op, dt, lay, w)]):.2f}" if (op, dt, lay, w) in cells else "-" for w in widths))
PY
