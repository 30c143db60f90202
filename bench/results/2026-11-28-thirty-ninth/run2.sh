#!/bin/bash
# On the device: executed SASS and stall samples by instruction (ncu source page) of the norms'
# backward in base, A and C: rmsnorm backward fp16 at 64 and 1024, layernorm backward at 256.
cd "$(dirname "$0")"
R=/tmp/s39sass; mkdir -p $R
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
for v in base A C; do
  for c in "rmsnorm_backward 64" "rmsnorm_backward 1024" "layernorm_backward 256"; do
    set -- $c
    tag=$v-$1_$2
    timeout 100 $NCU -k regex:register_kernel -s 1 -c 1 --set full --import-source no -f -o $R/$tag ./rfb-$v --op $1 --dtype fp16 --cols $2 --variant fused --no-check --reps 3 --budget-ms 5 > $R/$tag.log 2>&1
    $NCU -i $R/$tag.ncu-rep --page source --csv --print-source sass > $R/$tag-sass.csv 2>&1
    $NCU -i $R/$tag.ncu-rep --page details --csv > $R/$tag-details.csv 2>&1
    rm -f $R/$tag.ncu-rep; xz -T4 $R/$tag-sass.csv $R/$tag-details.csv
  done
done
(cd $R && tar czf $OUT/call2.tgz .)
ls -la $R | head
