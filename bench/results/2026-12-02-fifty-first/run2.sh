#!/bin/bash
# run2.sh NAME CARRY BASE V...: on the device, layernorm fp16 from the slim rowfuse-bench builds
# CARRY/rfb-BASE and CARRY/rfb-V...: each V checked against unfused (2^24 elements, aligned and off
# the grid), then all timed interleaved, three passes; NAME as NAME.tgz under $OUT, and the table
# (../2026-12-01-forty-fifth/table.py).
cd "$(dirname "$0")"; name=$1; d=/tmp/$1; C=$2; shift 2; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
W=32:262144,40,48,56,96,120,136,160,200,224,400,456,648,776,1000,2568,3080,6152,7176,16392
op="--op layernorm --dtype fp16"
for v in "${@:2}"; do
  $C/rfb-$v $op --cols $W --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$v.csv > $d/check-$v.log 2>&1
  $C/rfb-$v $op --cols 33,100,201,449,1000,1017,3081,6153,10249 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > $d/check-mis-$v.log 2>&1
  tail -qn1 $d/check-$v.log $d/check-mis-$v.log
done
for pass in 1 2 3; do for v in "$@"; do
  $C/rfb-$v $op --cols $W --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$?"
done; done
tar czf $OUT/$name.tgz -C /tmp $name
python3 ../2026-12-01-forty-fifth/table.py $d "$@"
