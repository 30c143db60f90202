#!/bin/bash
# On the device: I128 and I512 (the norms' backward chunks interleaved 32 at a time, row by row,
# up to 128 / 512 columns: detail::row_chunks) checked fused against unfused at 2^24 elements,
# aligned and off the grid; then timed against W1 (main) at 32-1024 and 96 / 120 columns, fp16,
# layernorm, rmsnorm and the residual block's backward, three interleaved passes; then off the
# grid, two passes.
cd "$(dirname "$0")"
d=call4; mkdir -p $d/mis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
for v in I128 I512; do
  ./rfb-$v --op $ops --dtype fp16 --cols 32:65536,48,96,120,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype fp16 --cols 33,50,100,127,200,300,511,1000 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
tar czf $OUT/$d.tgz $d
for pass in 1 2 3; do for v in W1 I128 I512; do
  ./rfb-$v --op $ops --dtype fp16 --cols 32:1024,96,120 --variant fused,copy --no-check --budget-ms 50 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
python3 table.py $d W1 I128 I512 > $d/table.txt; cat $d/table.txt
tar czf $OUT/$d.tgz $d
for pass in 1 2; do for v in W1 I512; do
  ./rfb-$v --op ${ops%,residual_backward} --dtype fp16 --cols 33,100,127,200,300,511 --misalign --variant fused,copy --no-check --budget-ms 40 --format csv --out $d/mis/time-$v-$pass.csv > /dev/null 2>&1
  echo "misaligned pass $pass $v rc=$? $(date +%T)"
done; done
python3 table.py $d/mis W1 I512 > $d/table-mis.txt; cat $d/table-mis.txt
tar czf $OUT/$d.tgz $d
