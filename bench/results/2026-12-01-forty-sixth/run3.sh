#!/bin/bash
# run3.sh: on the device, row_shapes.cu round 38, main's tree (M) and one exchange a row (W),
# softmax and log-softmax fp16 interleaved M, W, M, W (both passes in one file a build and part);
# rmsnorm (M) once.
cd "$(dirname "$0")"; C=../../../.device-carry
for pass in 1 2; do
  for k in 0 10; do for v in M W; do $C/r38$v/time$k >> $OUT/r38-$v-part$k.txt 2>&1; echo "$v $k $pass rc=$?"; done; done
done
$C/r38M/time3 > $OUT/r38-M-part3.txt 2>&1; echo "rms rc=$?"
