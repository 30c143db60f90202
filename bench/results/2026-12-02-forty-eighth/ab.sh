#!/bin/bash
# ab.sh DIR CARRY A B OPS DTYPES COLS MISALIGNED_COLS: on the device, slim rowfuse-bench builds
# CARRY/rfb-A and CARRY/rfb-B (CARRY a folder; a .tgz is unpacked first into /tmp) timed against
# each other: B checked against unfused (2^24 elements, aligned at COLS, off the grid at
# MISALIGNED_COLS), then A and B timed interleaved, three passes, at COLS; DIR as DIR.tgz under
# $OUT, and the cells that moved by 0.02 or more (../2026-12-01-forty-fifth/table.py).
cd "$(dirname "$0")"; d=$1; C=$2; A=$3; B=$4; mkdir -p $d
if [[ $C == *.tgz ]]; then mkdir -p /tmp/ab && tar xzf "$C" -C /tmp/ab && C=/tmp/ab; fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op $5 --dtype $6"; cols=$7
$C/rfb-$B $op --cols $cols --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$B.csv > $d/check-$B.log 2>&1; echo "check $B rc=$?"
$C/rfb-$B $op --cols $8 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$B.csv > $d/check-mis-$B.log 2>&1; echo "check misaligned $B rc=$?"
tail -n1 $d/check-$B.log $d/check-mis-$B.log
for pass in 1 2 3; do for v in $A $B; do
  $C/rfb-$v $op --cols $cols --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
python3 ../2026-12-01-forty-fifth/table.py $d $A $B | awk 'NR == 1 || $0 ~ /\(([+-]0\.0[2-9]|[+-]0\.[1-9])/'
