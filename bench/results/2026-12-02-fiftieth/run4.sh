#!/bin/bash
# run4.sh NAME: on the device, round 49 with gamma and beta read ahead and caps of five and twelve
# (build49ab.sh from the 32-bit column arithmetic's tree, A, into .device-carry/s50A2): layernorm
# and rmsnorm fp16 with their operands, two passes, into $OUT/NAME.tgz.
cd "$(dirname "$0")"; d=/tmp/$1; mkdir -p $d
for pass in 1 2; do for b in r1-a0 r3-a0; do ../../../.device-carry/s50A2/$b > $d/A2-$b-$pass.txt 2>&1; done; done
tar czf $OUT/$1.tgz -C /tmp $1
