#!/bin/bash
# On the device: E2 (E with the column sums in blocks of 8 warps at 128 chunks or fewer, and two
# more rows flagged sums_from_first_row: gradient_32bit's 2048 and 131072) checked at 2^24 elements
# aligned and off the grid, then timed against M (main) and E: the norms' backward and the
# residual block's, fp16 and fp32, 32-262144 columns, two interleaved passes.
cd "$(dirname "$0")"
d=call4; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
for v in E2; do
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 32:262144,96,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$? $(date +%T)"
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 33,100,127,200,511,1000,4097 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$? $(date +%T)"
done
tar czf $OUT/$d.tgz $d
for pass in 1 2; do for v in M E E2; do
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 32:262144,96 --variant fused,copy --no-check --budget-ms 50 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
python3 table.py $d M E E2 > $d/table.txt; cat $d/table.txt
tar czf $OUT/$d.tgz $d
