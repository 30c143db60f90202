#!/bin/bash
# On the device: P (interleaved 16-bit chunks to 128 columns, the op given the row and deriving
# its position) and Q (the same chunks, the engines giving the op the position) checked fused
# against unfused at 2^24 elements, aligned and off the grid, fp16 and fp32; then M (main), P and
# Q timed, layernorm / rmsnorm / residual backward, fp16 and fp32, 32-65536 and 96 / 120 columns,
# two interleaved passes; then off the grid, one pass. One tarball, refreshed as it goes.
cd "$(dirname "$0")"
d=call3; mkdir -p $d/mis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
for v in P Q; do
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 32:65536,96,120,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$? $(date +%T)"
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 33,100,127,200,511,1000,4097 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$? $(date +%T)"
done
tar czf $OUT/$d.tgz $d
for pass in 1 2; do for v in M P Q; do
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 32:65536,96,120 --variant fused,copy --no-check --budget-ms 50 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
python3 table.py $d M P Q > $d/table.txt; cat $d/table.txt
for v in M P Q; do
  ./rfb-$v --op ${ops%,residual_backward} --dtype fp16 --cols 33,100,127,200,511 --misalign --variant fused,copy --no-check --budget-ms 40 --format csv --out $d/mis/time-$v-1.csv > /dev/null 2>&1
  echo "misaligned $v rc=$? $(date +%T)"
done
python3 table.py $d/mis M P Q > $d/table-mis.txt; cat $d/table-mis.txt
tar czf $OUT/$d.tgz $d
