#!/bin/bash
# run4.sh: on the device, round 44's rows (W, main at 686b4e7) against round 45's (W2), softmax,
# log-softmax, rmsnorm and layernorm fp16 / bf16: W2 checked against unfused (2^24 elements,
# aligned at 32-8192 and the widths inside and past the new rows, off the grid at 33-10249), then
# W and W2 timed interleaved, three passes, at the same widths; call4/ as call4.tgz under $OUT.
cd "$(dirname "$0")"; C=../../../.device-carry/s48; d=call4; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op softmax,log_softmax,rmsnorm,layernorm --dtype fp16,bf16"
cols=32:8192,72,96,136,160,168,192,200,224,264,384,400,448,456,512,600,648,700,768,776,800,896,1000,1016,1024,6152,6656,7168,7176
$C/rfb-W2 $op --cols $cols --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-W2.csv > $d/check-W2.log 2>&1; echo "check W2 rc=$?"
$C/rfb-W2 $op --cols 33,100,161,300,449,1000,1017,6153,10249 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-W2.csv > $d/check-mis-W2.log 2>&1; echo "check misaligned W2 rc=$?"
tail -n1 $d/check-W2.log $d/check-mis-W2.log
for pass in 1 2 3; do for v in W W2; do
  $C/rfb-$v $op --cols $cols --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
python3 ../2026-12-01-forty-fifth/table.py $d W W2 | awk 'NR == 1 || $0 ~ /\(([+-]0\.0[2-9]|[+-]0\.[1-9])/'
