#!/bin/bash
# run8.sh: on the device, main's pipelines (PM, 17a2964) against PIPELINE_SHAPES_BETWEEN's rows (P):
# attention, residual, residual_tee and layernorm -> fp8, fp16 / bf16; P checked against unfused
# (2^24 elements, aligned at 32-8192 and the widths between, off the grid at 33-10249), then PM and
# P timed interleaved, three passes, at the same widths; call8/ as call8.tgz under $OUT.
cd "$(dirname "$0")"; C=/tmp/s48pp; d=call8; mkdir -p $d $C
# the two builds, gzipped so that they and the tree fit one call's 64 MiB
tar xzf ../../../.device-carry/s48pz/rfb.tgz -C $C
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op attention,residual,residual_tee,layernorm_fp8 --dtype fp16,bf16"
cols=32:8192,200,264,320,384,448,600,640,648,2056,2304,2560,2568,3000,3072,3080,4104,4608,5120,5128,6144,6152
$C/rfb-P $op --cols $cols --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-P.csv > $d/check-P.log 2>&1; echo "check P rc=$?"
$C/rfb-P $op --cols 33,265,385,601,2057,3001,4105,6145,10249 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-P.csv > $d/check-mis-P.log 2>&1; echo "check misaligned P rc=$?"
tail -n1 $d/check-P.log $d/check-mis-P.log
for pass in 1 2 3; do for v in PM P; do
  $C/rfb-$v $op --cols $cols --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
python3 ../2026-12-01-forty-fifth/table.py $d PM P | awk 'NR == 1 || $0 ~ /\(([+-]0\.0[2-9]|[+-]0\.[1-9])/'
