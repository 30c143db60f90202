#!/bin/bash
# On the device: base (HEAD), W1 (the chunk walk carried on rows of one block), N2 (the 16-bit
# norms' backward alone at 33-128 columns on the 256 row: two packs a lane), N4 (that row on four
# packs a lane) and NW (N2 and W1): each build checked fused against unfused aligned and off the
# grid, then timed interleaved, three passes; the SASS of the 64-column rmsnorm backward kernels.
cd "$(dirname "$0")"
out=${OUT:-.}
d=call1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
while read v f; do cuobjdump -sass -fun $f rfb-$v > $d/sass-$v.txt 2>&1; echo "sass $v $(grep -c ';' $d/sass-$v.txt)"; done < funs.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
cols=32:65536,96,160,200,1000
types() { case $1 in N2|N4) echo fp16;; *) echo fp16,fp32;; esac; }
for v in base W1 N2 N4 NW; do
  ./rfb-$v --op $ops,softmax_backward --dtype $(types $v) --cols $cols --budget-ms 60 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype $(types $v) --cols 33,100,120,200,255,300,511,1000,1023,4097 --misalign --budget-ms 60 --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
for pass in 1 2 3; do for v in base W1 N2 N4 NW; do
  ./rfb-$v --op $ops --dtype $(types $v) --cols $cols --variant fused,copy --no-check --budget-ms 70 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 table.py $d base W1 | tee $d/table-W1.txt
python3 table.py $d base N2 N4 NW | tee $d/table-N.txt
tar czf $out/$d.tgz $d
