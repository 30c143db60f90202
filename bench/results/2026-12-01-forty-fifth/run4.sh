#!/bin/bash
# run4.sh: on the device, row_shapes.cu round 35 (the 16-bit ops alone: softmax, rmsnorm,
# log-softmax), built on the development machine into .device-carry/r35/; one text a part under
# $OUT, then the best shapes a width.
cd "$(dirname "$0")"
C=../../../.device-carry/r35
for k in 0 3 10; do
  start=$(date +%s)
  $C/part$k > $OUT/r35-part$k.txt 2>&1
  echo "part $k rc=$? $(( $(date +%s) - start )) s"
done
for k in 0 3 10; do python3 r35top.py $OUT/r35-part$k.txt 3; done
