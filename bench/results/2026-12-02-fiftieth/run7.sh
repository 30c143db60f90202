#!/bin/bash
# run7.sh NAME V...: on the device, round 49's four parts (build49v.sh, .device-carry/s50vV) of
# each variant V, interleaved, three passes, into $OUT/NAME.tgz.
cd "$(dirname "$0")"; n=$1; shift; d=/tmp/$n; mkdir -p $d
nvidia-smi --query-gpu=name --format=csv,noheader > $d/gpu.txt
for pass in 1 2 3; do for v in "$@"; do for p in 0 10 1 3; do
  ../../../.device-carry/s50v$v/r$p-a0 > $d/$v-r$p-a0-$pass.txt 2>&1
done; done; done
tar czf $OUT/$n.tgz -C /tmp $n
