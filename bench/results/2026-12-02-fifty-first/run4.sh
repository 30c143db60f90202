#!/bin/bash
# run4.sh: on the device, row_shapes.cu round 49 built from main with this session's change
# (.device-carry/s51r49: layernorm fp16 with gamma and beta, r1-a0, and without, r1-a2, timed two
# passes; p1-a0 one launch a case under ncu), into $OUT/call8.tgz.
cd "$(dirname "$0")"; C=../../../.device-carry/s51r49; d=/tmp/call8; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $d/gpu.txt
for pass in 1 2; do for b in r1-a0 r1-a2; do $C/$b > $d/$b-$pass.txt 2>&1; done; done
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats"
timeout 200 ncu -k regex:register_kernel $S $C/p1-a0 > $d/ncu-p1-a0.txt 2>&1; echo "ncu rc=$?"
tar czf $OUT/call8.tgz -C /tmp call8
