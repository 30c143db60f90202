#!/bin/bash
# run3.sh: on the device, row_shapes.cu round 45 (softmax, layernorm, rmsnorm, log-softmax fp16)
# in two passes, as call3/ (call3.tgz under $OUT).
cd "$(dirname "$0")"; d=call3; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for pass in 1 2; do for b in r0 r1 r3 r10; do
  ../../../.device-carry/s48r45/$b > $d/$b-$pass.txt 2>&1; echo "$b pass $pass rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
