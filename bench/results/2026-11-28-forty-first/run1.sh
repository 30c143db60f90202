#!/bin/bash
# On the device: R (main with the 33-64 and 65-128 16-bit norm rows on compile-time groups of 8 and
# 16 lanes, unphased; checked in the fortieth session's call4) timed against W1 (main) at 32-256
# columns, fp16, three interleaved passes; then both off the grid (--misalign), two passes; then
# ncu of both at rmsnorm backward fp16 64 and 128 (executed SASS and stall samples by instruction).
cd "$(dirname "$0")"
d=call1; mkdir -p $d/mis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
for pass in 1 2 3; do for v in W1 R; do
  ./rfb-$v --op $ops --dtype fp16 --cols 32:256,48,96,120 --variant fused,copy --no-check --budget-ms 60 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
for pass in 1 2; do for v in W1 R; do
  ./rfb-$v --op $ops --dtype fp16 --cols 33,50,64,100,120,127,128,200 --misalign --variant fused,copy --no-check --budget-ms 40 --format csv --out $d/mis/time-$v-$pass.csv > /dev/null 2>&1
  echo "misaligned pass $pass $v rc=$? $(date +%T)"
done; done
python3 table.py $d W1 R > $d/table.txt; python3 table.py $d/mis W1 R > $d/table-mis.txt; cat $d/table.txt $d/table-mis.txt
tar czf $OUT/$d.tgz $d
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
for v in W1 R; do for c in 64 128; do
  tag=$v-rmsnorm_backward-fp16-$c
  timeout 60 $NCU -k regex:register_kernel -s 1 -c 1 --set full --import-source no -f -o $d/$tag ./rfb-$v --op rmsnorm_backward --dtype fp16 --cols $c --variant fused --no-check --reps 3 --budget-ms 5 > $d/$tag.log 2>&1
  $NCU -i $d/$tag.ncu-rep --page details --csv > $d/$tag-details.csv 2>&1
  $NCU -i $d/$tag.ncu-rep --page source --csv --print-source sass > $d/$tag-sass.csv 2>&1
  rm -f $d/$tag.ncu-rep; xz -T4 $d/$tag-sass.csv
  echo "ncu $tag $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
