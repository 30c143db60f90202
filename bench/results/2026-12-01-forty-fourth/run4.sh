#!/bin/bash
# On the device: M, V2 and V3 (V2 with the store side's in-place compares as main's: only the drawn
# bits tested in PTX), slim forward builds (pipelines fp16 / fp32) made on the development machine.
# V3 checked against unfused, then M / V2 / V3 timed interleaved, three passes.
cd "$(dirname "$0")"
C=../../../.device-carry/s44; d=call4; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
fwd="--op attention,residual,residual_tee --dtype fp16,fp32"
$C/rfb-V3 $fwd --cols 32:262144,96,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-V3.csv > /dev/null 2>&1; echo "check rc=$?"
$C/rfb-V3 $fwd --cols 33,100,1000,4097,40001 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-V3.csv > /dev/null 2>&1; echo "check misaligned rc=$?"
grep -c ',ok,' $d/check-V3.csv $d/check-mis-V3.csv; grep -v ',ok,\|,copy,\|,unfused,\|^device' $d/check-*.csv | head
for pass in 1 2 3; do for v in M V2 V3; do
  $C/rfb-$v $fwd --cols 32:262144 --variant fused,copy --no-check --budget-ms 40 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v $(date +%T)"
done; done
python3 table.py $d M V2 V3 > $d/table.txt
tar czf $OUT/$d.tgz $d
