#!/bin/bash
# On the device: M (main after 1d39873) and F (layernorm -> fp8 on layernorm's own rows: the store
# chain's table, whose rows up to 32768 columns are persistent grids that read no row ahead, left
# out), slim forward builds; F checked against unfused, M / F timed interleaved, three passes. A
# probe: not on main.
cd "$(dirname "$0")"
C=../../../.device-carry/s44; d=call7; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op layernorm_fp8 --dtype fp16,fp32"
$C/rfb-F $op --cols 32:262144,96,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-F.csv > /dev/null 2>&1; echo "check rc=$?"
$C/rfb-F $op --cols 33,100,1000,4097,40001 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-F.csv > /dev/null 2>&1; echo "check misaligned rc=$?"
grep -c ',ok,' $d/check-F.csv $d/check-mis-F.csv; grep -v ',ok,\|,copy,\|,unfused,\|^device' $d/check-*.csv | head
for pass in 1 2 3; do for v in M F; do
  $C/rfb-$v $op --cols 32:262144,1000,3000,12288 --variant fused,copy --no-check --budget-ms 40 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 table.py $d M F > $d/table.txt; cat $d/table.txt
tar czf $OUT/$d.tgz $d
