#!/bin/bash
# run10.sh: on the device, pipeline_shapes.cu's wide survey halves (PIPELINE_SHAPES_WIDE=1, fp16:
# parts 3 the residual block, 1 attention, 5 its tee, 7 layernorm -> fp8; 32768-262144 columns),
# built on the development machine into .device-carry/sw/; one CSV a part under $OUT.
cd "$(dirname "$0")"
C=../../../.device-carry/sw
for k in 3 1 5 7; do
  $C/part$k > $OUT/sw$k.csv 2> $OUT/sw$k.err; echo "part $k rc=$?"
done
for k in 3 1 5 7; do python3 top.py $OUT/sw$k.csv 2; done
