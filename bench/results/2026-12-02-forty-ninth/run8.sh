#!/bin/bash
# run8.sh: on the device, row_shapes.cu round 48 (layernorm, softmax, rmsnorm, log-softmax fp16 at
# 64-512 columns; ../2026-12-02-forty-seventh/build-round.sh 48 from main at the commit README.md
# names) in two passes, as call8/ (../2026-12-02-forty-eighth/top.py reads it).
cd "$(dirname "$0")"; d=call8; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for pass in 1 2; do for b in r1 r0 r3 r10; do
  ../../../.device-carry/s49r48/$b > $d/$b-$pass.txt 2>&1; echo "$b pass $pass rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
