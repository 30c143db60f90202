#!/bin/bash
# run11.sh: on the device, row_shapes.cu round 39 (fp32: softmax part 2, log-softmax part 15,
# rmsnorm part 5), cluster shapes exchanging twice (s) and once (o), two passes interleaved.
cd "$(dirname "$0")"; C=../../../.device-carry/r39
for pass in 1 2; do for v in s2 o2 s15 o15; do $C/$v >> $OUT/r39-$v.txt 2>&1; echo "$v $pass rc=$?"; done; done
$C/s5 > $OUT/r39-s5.txt 2>&1; echo "s5 rc=$?"
