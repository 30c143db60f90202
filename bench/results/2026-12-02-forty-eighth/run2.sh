#!/bin/bash
# run2.sh: on the device, main (M) against round 44's rows (W), softmax, log-softmax, rmsnorm and
# layernorm fp16 / bf16: W checked against unfused (2^24 elements, aligned at 32-16384 and the
# widths between, off the grid at 33-10249), then M and W timed interleaved, three passes, at
# 32-16384 columns and the widths between the powers of two to 6152; call2/ as call2.tgz under $OUT.
cd "$(dirname "$0")"; C=../../../.device-carry/s48; d=call2; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op softmax,log_softmax,rmsnorm,layernorm --dtype fp16,bf16"
cols=32:16384,72,96,160,192,200,264,320,384,448,600,640,648,1000,2056,2304,2560,2568,3000,3072,3080,4104,4608,5120,5128,5632,6144,6152
$C/rfb-W $op --cols $cols --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-W.csv > $d/check-W.log 2>&1; echo "check W rc=$?"
$C/rfb-W $op --cols 33,100,300,1000,2057,4097,5121,10249 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-W.csv > $d/check-mis-W.log 2>&1; echo "check misaligned W rc=$?"
tail -n1 $d/check-W.log $d/check-mis-W.log
for pass in 1 2 3; do for v in M W; do
  $C/rfb-$v $op --cols $cols --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
python3 ../2026-12-01-forty-fifth/table.py $d M W | awk 'NR == 1 || $0 ~ /\(([+-]0\.0[2-9]|[+-]0\.[1-9])/'
