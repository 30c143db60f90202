#!/bin/bash
# run5.sh: on the device, row_shapes.cu round 46 (softmax, log-softmax, rmsnorm, layernorm fp32) in
# two passes, then main's rowfuse-bench (F: 0221a8f, the four ops fp32) at 32-8192 columns and the
# widths between, one pass, as call5/ (call5.tgz under $OUT).
cd "$(dirname "$0")"; d=call5; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for pass in 1 2; do for b in r2 r15 r5 r4; do
  ../../../.device-carry/s48f/$b > $d/$b-$pass.txt 2>&1; echo "$b pass $pass rc=$? $(date +%T)"
done; done
cols=32:8192,72,96,160,200,264,320,384,448,600,640,1000,2056,2560,3000,4104,5120,6144,6152
../../../.device-carry/s48f/rfb-F --op softmax,log_softmax,rmsnorm,layernorm --dtype fp32 --cols $cols \
  --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-F-1.csv > /dev/null 2>&1
echo "F rc=$? $(date +%T)"
tar czf $OUT/$d.tgz $d
