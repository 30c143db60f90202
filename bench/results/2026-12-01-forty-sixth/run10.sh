#!/bin/bash
# run10.sh: on the device, pipeline_shapes.cu with PIPELINE_SHAPES_WIDE=1, attention fp16: part 0
# (the planned call and its ablations, 32768-262144 columns), part 1 with PIPELINE_SHAPES_CAPS=1
# (cluster rows under caps of three blocks) as committed (c1) and exchanging once (o1).
cd "$(dirname "$0")"; C=../../../.device-carry/ps
for v in c0 c1 o1; do s=$(date +%s); timeout 200 $C/$v > $OUT/$v.csv 2>&1; echo "$v rc=$? $(( $(date +%s) - s )) s"; done
