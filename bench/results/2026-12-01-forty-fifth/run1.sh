#!/bin/bash
# run1.sh: on the device, pipeline_shapes.cu's survey halves (fp16: parts 1 attention, 3 the
# residual block, 5 its tee, 7 layernorm -> fp8), built on the development machine into
# .device-carry/survey/; one CSV a part under $OUT, then the best shapes a width beside the plan.
cd "$(dirname "$0")"
C=../../../.device-carry/${DIR:-sa}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $OUT/device.txt
for k in ${PARTS:-3 1 5 7}; do
  start=$(date +%s)
  $C/part$k > $OUT/sv$k.csv 2> $OUT/sv$k.err
  echo "part $k rc=$? $(( $(date +%s) - start )) s"
done
for k in ${PARTS:-3 1 5 7}; do python3 top.py $OUT/sv$k.csv 3; done
