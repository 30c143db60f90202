#!/bin/bash
# On the device: D4, RD4, R5, R6 checked fused against unfused at 2^24 elements (one timed launch),
# aligned and off the grid; then W1 (main), R, D4, RD4, R5, R6 timed interleaved at 2^27 elements,
# layernorm and rmsnorm backward fp16 at 32-512 and 48 / 96 / 120 columns, three passes; then W1,
# D4 and RD4 off the grid (--misalign), two passes. One tarball back, refreshed as it goes.
cd "$(dirname "$0")"
d=call2; mkdir -p $d/mis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward
for v in D4 RD4 R5 R6; do
  ./rfb-$v --op $ops,residual_backward --dtype fp16 --cols 32:1024,48,96,120,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype fp16 --cols 33,50,100,120,127,200,300,511 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
tar czf $OUT/$d.tgz $d
for pass in 1 2 3; do for v in W1 R D4 RD4 R5 R6; do
  ./rfb-$v --op $ops --dtype fp16 --cols 32:512,48,96,120 --variant fused,copy --no-check --budget-ms 50 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
python3 table.py $d W1 R D4 RD4 R5 R6 > $d/table.txt; cat $d/table.txt
tar czf $OUT/$d.tgz $d
for pass in 1 2; do for v in W1 D4 RD4; do
  ./rfb-$v --op $ops --dtype fp16 --cols 33,100,120,127,200,300,511 --misalign --variant fused,copy --no-check --budget-ms 40 --format csv --out $d/mis/time-$v-$pass.csv > /dev/null 2>&1
  echo "misaligned pass $pass $v rc=$? $(date +%T)"
done; done
python3 table.py $d/mis W1 D4 RD4 > $d/table-mis.txt; cat $d/table-mis.txt
tar czf $OUT/$d.tgz $d
