#!/bin/bash
# run3.sh: row_shapes.cu round 41 (build-round.sh's round-41 binaries in .device-carry/r41: layernorm fp32,
# fp16, bf16), two passes (the second in reverse order); call3/ as call3.tgz under $OUT.
cd "$(dirname "$0")"; C=../../../.device-carry/r41; d=call3; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for p in 4 1 16 16 1 4; do
  pass=1; [ -f $d/time$p-1.txt ] && pass=2
  $C/r$p > $d/time$p-$pass.txt 2>&1; echo "r$p pass $pass rc=$? $(date +%T)"
done
tar czf $OUT/$d.tgz $d
