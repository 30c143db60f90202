#!/bin/bash
# On the device: executed SASS by opcode (ncu source page) of main's norms' backward rows where
# QuACK leads or the rows changed: rmsnorm backward fp16 at 64 and 1024, layernorm backward at 256.
R=/tmp/s38sass; mkdir -p $R
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
B=.device-carry/s38b/rfb-F
for c in "rmsnorm_backward 64" "rmsnorm_backward 1024" "layernorm_backward 256"; do
  set -- $c
  tag=$1_$2
  timeout 100 $NCU -k regex:register_kernel -s 1 -c 1 --set full --import-source no -f -o $R/$tag $B --op $1 --dtype fp16 --cols $2 --variant fused --no-check --reps 3 --budget-ms 5 > $R/$tag.log 2>&1
  $NCU -i $R/$tag.ncu-rep --page source --csv --print-source sass > $R/$tag-sass.csv 2>&1
  rm -f $R/$tag.ncu-rep; xz -T4 $R/$tag-sass.csv
done
(cd $R && tar czf $OUT/call4.tgz .)
ls -la $R
