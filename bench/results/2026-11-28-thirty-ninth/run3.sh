#!/bin/bash
# On the device: D (staged whole-block rows copy each row's saved statistics beside the row, lane 0
# of each warp; group rows read them at the row as before) and D2 (D with the chunk walk advanced
# from the step before) against base (HEAD): each build checked fused against unfused aligned and
# off the grid, then timed interleaved, three passes; then ncu of base and D2 at rmsnorm backward
# fp16 1024 and layernorm backward fp32 4096 (executed SASS and stall samples by instruction).
cd "$(dirname "$0")"
out=${OUT:-.}
d=call3; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
vs="base D D2"
ops=layernorm_backward,rmsnorm_backward,residual_backward,softmax_backward
cols=32:65536,96,160,200,1000
for v in D D2; do
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols $cols --budget-ms 60 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 100,200,255,300,511,1000 --misalign --budget-ms 60 --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
for pass in 1 2 3; do for v in $vs; do
  ./rfb-$v --op ${ops%,softmax_backward} --dtype fp16,fp32 --cols $cols --variant fused,copy --no-check --budget-ms 70 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 table.py $d $vs | tee $d/table.txt
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
for v in base D2; do
  for c in "rmsnorm_backward fp16 1024" "layernorm_backward fp32 4096"; do
    set -- $c
    tag=$v-$1-$2-$3
    timeout 100 $NCU -k regex:register_kernel -s 1 -c 1 --set full --import-source no -f -o $d/$tag ./rfb-$v --op $1 --dtype $2 --cols $3 --variant fused --no-check --reps 3 --budget-ms 5 > $d/$tag.log 2>&1
    $NCU -i $d/$tag.ncu-rep --page source --csv --print-source sass > $d/$tag-sass.csv 2>&1
    rm -f $d/$tag.ncu-rep; xz -T4 $d/$tag-sass.csv
  done
done
tar czf $out/$d.tgz $d
