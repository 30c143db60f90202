#!/bin/bash
# run2.sh: on the device, from .device-carry/s52n (carried as s52z/s52n.tgz): norm_shapes_layernorm (built from main at
# 20a43cf with its 64-column case fixed) under ctest (../2026-12-01-forty-fifth/suites.sh), then
# layernorm fp16 at 64 columns under ncu, one launch, main before the change (rfb-M) and after it
# (rfb-F4), and lane_layout.cu's 2 x 4 kernels (rms-lanes, rms-in) beside them; into $OUT.
cd "$(dirname "$0")"; tar xzf ../../../.device-carry/s52z/s52n.tgz -C ../../../.device-carry; C=$PWD/../../../.device-carry/s52n; d=/tmp/call7; mkdir -p $d
(cd ../2026-12-01-forty-fifth && GROUP=s52n bash suites.sh s52-suites-e 2>&1 | tail -6)
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis"
for b in M F4; do
  timeout 120 ncu -k regex:register_kernel --launch-skip 2 --launch-count 1 $S $C/rfb-$b --op layernorm \
    --dtype fp16 --cols 64 --reps 1 --budget-ms 1 --variant fused --no-check > $d/ncu-$b.txt 2>&1
  echo "ncu $b rc=$?"
done
timeout 120 ncu -k regex:layout_kernel --launch-skip 46 --launch-count 1 $S $C/lane_layout 1 > $d/ncu-lane-rms-lanes.txt 2>&1
timeout 120 ncu -k regex:layout_kernel --launch-skip 68 --launch-count 1 $S $C/lane_layout 1 > $d/ncu-lane-rms-in.txt 2>&1
echo "ncu lane_layout rc=$?"
tar czf $OUT/call7.tgz -C /tmp call7
grep -h -E "^  [a-zA-Z].*register_kernel|layout_kernel|Duration|Memory Throughput|DRAM Throughput|Issue Slots Busy|Achieved Occupancy|Registers Per|Executed Ipc A|No Eligible|One or More" $d/ncu-*.txt | cut -c1-150
