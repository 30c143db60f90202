#!/bin/bash
# run3.sh CARRY: on the device, P4's slim rowfuse-bench (CARRY/rfb-V3 built from P3's tree; the
# same kernels at 1000 columns) under ncu, one launch each: layernorm, log-softmax and rmsnorm
# fp16 at 1000 columns off the grid (--misalign: phased rows on run-time groups) and on it; into
# $OUT/call5.tgz and the headline counters.
cd "$(dirname "$0")"; C=$1; d=/tmp/call5; mkdir -p $d
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis"
for op in layernorm log_softmax rmsnorm; do for c in 1000m 1000; do
  mis=""; cols=${c%m}; [ "$c" != "$cols" ] && mis="--misalign"
  timeout 60 ncu -k regex:register_kernel --launch-skip 2 --launch-count 1 $S $C/rfb-V3 --op $op \
    --dtype fp16 --cols $cols $mis --reps 1 --budget-ms 1 --variant fused --no-check > $d/ncu-$op-$c.txt 2>&1
  echo "ncu $op $c rc=$?"
done; done
tar czf $OUT/call5.tgz -C /tmp call5
for f in $d/ncu-*.txt; do echo "== $(basename $f)"; grep -E "register_kernel|Duration|DRAM Throughput|Mem Busy|Issued Warp Per|Executed Instructions  |Registers Per|Achieved Occupancy|Block Size|Grid Size|No Eligible|L2 Hit" $f | cut -c1-150 | head -24; done
