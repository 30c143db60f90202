#!/bin/bash
# run1.sh: row_shapes.cu round 40 (build-round.sh's round-40 binaries in .device-carry/r40), every part,
# two passes (the second in reverse part order); call1/ as call1.tgz under $OUT.
cd "$(dirname "$0")"; C=../../../.device-carry/r40; d=call1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $d/device.txt
parts="2 2o 15 15o 5 0 0o 10 10o 3"
for pass in 1 2; do
  [ $pass = 2 ] && parts=$(echo $parts | tr ' ' '\n' | tac | tr '\n' ' ')
  for p in $parts; do
    [ -x $C/r$p ] || { echo "no r$p"; continue; }
    $C/r$p > $d/time$p-$pass.txt 2>&1; echo "r$p pass $pass rc=$? $(date +%T)"
  done
done
tar czf $OUT/$d.tgz $d
