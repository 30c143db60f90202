#!/bin/bash
# run2.sh NAME CARRY V...: on the device, the slim rowfuse-bench builds CARRY/rfb-V... under ncu,
# one launch each: layernorm and rmsnorm fp16 at 1000 and 3000 columns off the grid (--misalign:
# phased rows, gamma and beta off their grid in 7 rows of 8); into $OUT/NAME.tgz and the headline
# counters (call2: M H; call4: H2).
cd "$(dirname "$0")"; name=$1; C=$2; shift 2; d=/tmp/$name; mkdir -p $d
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis"
for v in "$@"; do for op in layernorm rmsnorm; do for cols in 1000 3000; do
  timeout 60 ncu -k regex:register_kernel --launch-skip 2 --launch-count 1 $S $C/rfb-$v --op $op \
    --dtype fp16 --cols $cols --misalign --reps 1 --budget-ms 1 --variant fused --no-check > $d/ncu-$v-$op-$cols.txt 2>&1
  echo "ncu $v $op $cols rc=$?"
done; done; done
tar czf $OUT/$name.tgz -C /tmp $name
for f in $d/ncu-*.txt; do echo "== $(basename $f)"; grep -E "Duration|DRAM Throughput|Mem Busy|Issued Warp Per|Executed Instructions  |Registers Per|L1/TEX Hit" $f | cut -c1-150 | head -12; done
