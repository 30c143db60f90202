#!/bin/bash
# run1.sh: on the device, row_shapes.cu round 49 (build49.sh, carried in .device-carry/s50r49):
# the timed builds two passes, then the profile builds under ncu (every case), then per-instruction
# stall samples of layernorm's and rmsnorm's 4 x 128 rows at 256 columns, one row tile a block.
cd "$(dirname "$0")"; C=../../../.device-carry/s50r49
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt
for pass in 1 2; do
  for b in r1-a0 r3-a0 r1-a1 r1-a2 r3-a2; do $C/$b > $OUT/$b-$pass.txt 2>&1; done
done
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats"
for b in p1-a0 p3-a0; do
  timeout 150 ncu -k regex:register_kernel $S $C/$b > $OUT/ncu-$b.txt 2>&1; echo "ncu $b rc=$?"
done
for b in p1-a0 p3-a0; do
  timeout 100 ncu -k regex:register_kernel --launch-skip 12 --launch-count 1 --section SourceCounters \
    --section WarpStateStats --page source --print-source sass --csv $C/$b > $OUT/src-$b.csv 2>&1
  echo "src $b rc=$?"
done
ls -la $OUT
