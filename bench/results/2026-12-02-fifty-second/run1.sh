#!/bin/bash
# run1.sh NAME CARRY BASE V...: on the device, layernorm fp16 and bf16 (OP, DTYPES to change) from
# the slim rowfuse-bench builds CARRY/rfb-BASE and CARRY/rfb-V...: each V checked against unfused
# (2^24 elements, aligned at the timed widths and off the grid), then all timed interleaved, three
# passes, at W (WIDTHS to change); NAME as NAME.tgz under $OUT, and the table
# (../2026-12-01-forty-fifth/table.py).
cd "$(dirname "$0")"; name=$1; d=/tmp/$1; C=$2; shift 2; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
W=${WIDTHS:-16:1024,33,40,48,56,60,72,96,120,200,2048,65536}
op="--op ${OP:-layernorm} --dtype ${DTYPES:-fp16,bf16}"
for v in "${@:2}"; do
  $C/rfb-$v $op --cols $W --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$v.csv > $d/check-$v.log 2>&1
  $C/rfb-$v $op --cols 33,41,57,63,100,201,1000 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > $d/check-mis-$v.log 2>&1
  tail -qn1 $d/check-$v.log $d/check-mis-$v.log
done
for pass in 1 2 3; do for v in "$@"; do
  $C/rfb-$v $op --cols $W --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$?"
done; done
tar czf $OUT/$name.tgz -C /tmp $name
python3 ../2026-12-01-forty-fifth/table.py $d "$@"
