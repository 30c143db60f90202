#!/bin/bash
# run1.sh: on the device, row_shapes.cu round 36 (cluster rows at 65536 / 131072, fp16 softmax and
# rmsnorm): timed, then under ncu (details of every case, SASS-level stall samples of two).
cd "$(dirname "$0")"; C=../../../.device-carry/r36
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt
for k in 0 3; do $C/time$k > $OUT/time$k.txt 2>&1; done
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section InstructionStats"
for k in 0 3; do
  timeout 200 ncu -k regex:register_kernel $S $C/prof$k > $OUT/ncu$k.txt 2>&1; echo "ncu $k rc=$?"
done
# Per-instruction stall samples: case 0 (8 x 256 in 4, direct, one cluster a row tile) of softmax.
timeout 120 ncu -k regex:register_kernel --launch-count 1 --section SourceCounters --section WarpStateStats \
  --page source --print-source sass --csv $C/prof0 > $OUT/src0.csv 2>&1; echo "src rc=$?"
timeout 120 ncu -k regex:register_kernel --launch-skip 3 --launch-count 1 --section SourceCounters --section WarpStateStats \
  --page source --print-source sass --csv $C/prof0 > $OUT/src0-staged-persist.csv 2>&1; echo "src2 rc=$?"
ls -la $OUT
