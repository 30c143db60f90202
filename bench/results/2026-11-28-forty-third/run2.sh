#!/bin/bash
# On the device: C (the column sums: both gradients in one launch, 32 warps over slices of 256
# chunks) and D (C, the chunk sums kept in registers starting from -0 with no select a term)
# checked at 2^24 elements aligned and off the grid, then timed against M (main): the norms'
# backward and the residual block's, fp16 and fp32, 32-65536 columns, two interleaved passes.
cd "$(dirname "$0")"
d=call2; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
for v in C D; do
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 32:65536,96,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$? $(date +%T)"
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 33,100,127,200,511,1000,4097 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$? $(date +%T)"
done
tar czf $OUT/$d.tgz $d
for pass in 1 2; do for v in M C D; do
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 32:65536,96 --variant fused,copy --no-check --budget-ms 50 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
python3 table.py $d M C D > $d/table.txt; cat $d/table.txt
tar czf $OUT/$d.tgz $d
