#!/bin/bash
# run2.sh: on the device, row_shapes.cu round 37 (cluster rows' register caps, fp16 softmax and
# rmsnorm at 32768-262144), built on the development machine into .device-carry/r37/.
cd "$(dirname "$0")"; C=../../../.device-carry/r37
for k in 0 3; do s=$(date +%s); $C/time$k > $OUT/r37-part$k.txt 2>&1; echo "part $k rc=$? $(( $(date +%s) - s )) s"; done
