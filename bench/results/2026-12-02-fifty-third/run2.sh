#!/bin/bash
# run2.sh: on the device, the slim rowfuse-bench builds M (main) and V1 (call1's P1) of
# .device-carry/s53 under ncu, one launch each: softmax and rmsnorm fp16 at 60 columns on the grid
# (rows 8 bytes apart), 64 columns off it (--misalign) and 64 on it; into $OUT/call2.tgz and the
# headline counters with the warp states.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s53; d=/tmp/call2; mkdir -p $d
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis"
for v in M V1; do for op in softmax rmsnorm; do for c in 60 64m 64; do
  mis=""; cols=${c%m}; [ "$c" != "$cols" ] && mis="--misalign"
  timeout 60 ncu -k regex:register_kernel --launch-skip 2 --launch-count 1 $S $C/rfb-$v --op $op \
    --dtype fp16 --cols $cols $mis --reps 1 --budget-ms 1 --variant fused --no-check > $d/ncu-$v-$op-$c.txt 2>&1
  echo "ncu $v $op $c rc=$?"
done; done; done
tar czf $OUT/call2.tgz -C /tmp call2
for f in $d/ncu-*.txt; do echo "== $(basename $f)"; grep -E "register_kernel|Duration|DRAM Throughput|Mem Busy|Issued Warp Per|Executed Instructions  |Registers Per|Achieved Occupancy|Block Size|Grid Size|L1/TEX Hit|L2 Hit|Stall" $f | cut -c1-150 | head -24; done
