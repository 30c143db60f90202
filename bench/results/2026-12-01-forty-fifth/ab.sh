#!/bin/bash
# ab.sh A B DIR: on the device, slim rowfuse-bench builds A and B (build-variant.sh; the pipelines
# fp16 / bf16). B checked against unfused (2^24 elements, aligned: 32-262144 and widths inside the
# new rows' ranges; off the grid: 33-40001), then A and B timed interleaved, three passes
# (DIR/time-BUILD-PASS.csv), table.py last.
cd "$(dirname "$0")"
A=$1; V=$2; C=../../../.device-carry/s45; d=$3; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op attention,residual,residual_tee --dtype fp16,bf16"
extra=129,200,2049,2056,2560,3000,8200,10240,12288
$C/rfb-$V $op --cols 32:262144,$extra --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$V.csv > $d/check-$V.log 2>&1; echo "check $V rc=$?"
$C/rfb-$V $op --cols 33,100,1000,2051,4097,8201,40001 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$V.csv > $d/check-mis-$V.log 2>&1; echo "check misaligned $V rc=$?"
grep -c ',ok,' $d/check-$V.csv $d/check-mis-$V.csv; grep -v ',ok,\|,copy,\|,unfused,\|^device' $d/check-$V.csv $d/check-mis-$V.csv | head
for pass in 1 2 3; do for v in $A $V; do
  $C/rfb-$v $op --cols 32:32768,$extra --variant fused,copy --no-check --budget-ms 40 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; done
python3 table.py $d $A $V
