#!/bin/bash
# On the device: ncu (--set full) of M and S, layernorm backward fp16 at 128 columns (S -0.06) and
# rmsnorm backward fp16 at 64 (S +0.07): the details page and the SASS with stall samples.
cd "$(dirname "$0")"
d=call6; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
for oc in layernorm_backward:128 rmsnorm_backward:64; do for v in M S; do
  op=${oc%:*}; c=${oc#*:}; tag=$v-$op-fp16-$c
  timeout 80 $NCU -k regex:register_kernel -s 1 -c 1 --set full --import-source no -f -o $d/$tag ./rfb-$v --op $op --dtype fp16 --cols $c --variant fused --no-check --reps 3 --budget-ms 5 > $d/$tag.log 2>&1
  $NCU -i $d/$tag.ncu-rep --page details --csv > $d/$tag-details.csv 2>&1
  $NCU -i $d/$tag.ncu-rep --page source --csv --print-source sass > $d/$tag-sass.csv 2>&1
  rm -f $d/$tag.ncu-rep; xz -T4 $d/$tag-sass.csv
  echo "ncu $tag $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
