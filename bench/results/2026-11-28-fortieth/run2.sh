#!/bin/bash
# On the device (after run1.sh ran out of time in base's full-size check): each build checked
# fused against unfused at 2^24 elements a case, one timed launch (the check is what matters
# there), aligned and off the grid; then base, W1, N2, N4, NW timed interleaved at 2^27, three
# passes. Writes straight to $OUT so that a cut-short call still returns what it has.
cd "$(dirname "$0")"
d=$OUT/call2; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
cols=32:65536,96,160,200,1000
types() { case $1 in N2|N4) echo fp16;; *) echo fp16,fp32;; esac; }
for v in W1 N2 N4 NW; do
  ./rfb-$v --op $ops --dtype $(types $v) --cols $cols --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$? $(date +%T)"
  ./rfb-$v --op $ops --dtype $(types $v) --cols 33,100,120,200,255,300,511,1000,1023,4097 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$? $(date +%T)"
done
for pass in 1 2 3; do for v in base W1 N2 N4 NW; do
  ./rfb-$v --op $ops --dtype $(types $v) --cols $cols --variant fused,copy --no-check --budget-ms 70 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; done
python3 table.py $d base W1 > $d/table-W1.txt
python3 table.py $d base N2 N4 NW > $d/table-N.txt
