#!/bin/bash
# run4.sh: on the device, row_shapes.cu round 47 (softmax, log-softmax, rmsnorm, layernorm fp16
# just past 8192 and 16384 columns; ../2026-12-02-forty-seventh/build-round.sh 47 from main at the
# commit README.md names) in two passes, as call4/ (../2026-12-02-forty-eighth/top.py reads it).
cd "$(dirname "$0")"; d=call4; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for pass in 1 2; do for b in r0 r10 r3 r1; do
  ../../../.device-carry/s49r/$b > $d/$b-$pass.txt 2>&1; echo "$b pass $pass rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
