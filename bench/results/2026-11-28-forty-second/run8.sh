#!/bin/bash
# On the device: L2 (L with the group rows carrying the row alone, the next of a chunk from the
# step) checked and timed against M (main), fp16, two interleaved passes, then off the grid.
cd "$(dirname "$0")"
d=call8; mkdir -p $d/mis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
./rfb-L2 --op $ops --dtype fp16 --cols 32:65536,96,120,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-L2.csv > /dev/null 2>&1; echo "check L2 rc=$? $(date +%T)"
./rfb-L2 --op $ops --dtype fp16 --cols 33,100,127,200,511,1000,4097 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-L2.csv > /dev/null 2>&1; echo "check misaligned L2 rc=$? $(date +%T)"
tar czf $OUT/$d.tgz $d
for pass in 1 2; do for v in M L2; do
  ./rfb-$v --op $ops --dtype fp16 --cols 32:65536,48,96,120 --variant fused,copy --no-check --budget-ms 50 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
python3 table.py $d M L2 > $d/table.txt; cat $d/table.txt
for v in M L2; do
  ./rfb-$v --op ${ops%,residual_backward} --dtype fp16 --cols 33,100,127,200,511 --misalign --variant fused,copy --no-check --budget-ms 40 --format csv --out $d/mis/time-$v-1.csv > /dev/null 2>&1
  echo "misaligned $v rc=$? $(date +%T)"
done
python3 table.py $d/mis M L2 > $d/table-mis.txt; cat $d/table-mis.txt
tar czf $OUT/$d.tgz $d
