#!/bin/bash
# run6.sh: on the device, main (F, 0221a8f) against round 46's fp32 rows (X), softmax, log-softmax,
# rmsnorm and layernorm fp32: X checked against unfused (2^24 elements, aligned at 32-8192 and the
# widths between, off the grid at 33-10249), then F and X timed interleaved, three passes, at the
# same widths; call6/ as call6.tgz under $OUT.
cd "$(dirname "$0")"; C=../../../.device-carry/s48x; d=call6; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op softmax,log_softmax,rmsnorm,layernorm --dtype fp32"
cols=32:8192,72,96,136,160,168,200,264,320,384,400,448,600,640,648,1000,2056,2304,2560,2568,3000,3072,3080,4104,4608,5120,5128,6144,6152
$C/rfb-X $op --cols $cols --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-X.csv > $d/check-X.log 2>&1; echo "check X rc=$?"
$C/rfb-X $op --cols 33,97,161,321,641,2561,4105,6145,10249 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-X.csv > $d/check-mis-X.log 2>&1; echo "check misaligned X rc=$?"
tail -n1 $d/check-X.log $d/check-mis-X.log
for pass in 1 2 3; do for v in F X; do
  $C/rfb-$v $op --cols $cols --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
python3 ../2026-12-01-forty-fifth/table.py $d F X | awk 'NR == 1 || $0 ~ /\(([+-]0\.0[2-9]|[+-]0\.[1-9])/'
