#!/bin/bash
# run4.sh: on the device, main's slim rowfuse-bench of the four ops (.device-carry/s52w/rfb-N) under
# ncu, one launch each: softmax and layernorm fp16 at 60 and 100 columns on the grid (single
# elements: rows 8 bytes apart on it), and at 64 columns for the packs' row beside them; into
# $OUT/call9.tgz and the headline counters.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s52w; d=/tmp/call9; mkdir -p $d
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats"
for op in softmax layernorm; do for cols in 60 100 64; do
  timeout 60 ncu -k regex:register_kernel --launch-skip 2 --launch-count 1 $S $C/rfb-N --op $op \
    --dtype fp16 --cols $cols --reps 1 --budget-ms 1 --variant fused --no-check > $d/ncu-$op-$cols.txt 2>&1
  echo "ncu $op $cols rc=$?"
done; done
tar czf $OUT/call9.tgz -C /tmp call9
for f in $d/ncu-*.txt; do echo "== $(basename $f)"; grep -E "Duration|DRAM Throughput|Mem Busy|Issued Warp Per|Executed Instructions  |Registers Per|Achieved Occupancy|Block Size|Grid Size" $f | head -12; done
