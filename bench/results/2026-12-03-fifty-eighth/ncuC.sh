#!/bin/bash
# ncuC.sh NAME CARRY BUILDS...: on the device, ncu's duration, instructions and issue of every kernel
# of one call (the copies at each phase and the op's kernel) for each build, off the grid.
cd "$(dirname "$0")"; name=$1; C=$2; shift 2; d=/tmp/$name; mkdir -p $d
S="--section SpeedOfLight --section LaunchStats --section Occupancy --section InstructionStats --section SchedulerStats --section MemoryWorkloadAnalysis"
for v in "$@"; do
for spec in "rmsnorm fp16 8191" "layernorm fp32 300" "layernorm fp16 100003" "rmsnorm fp32 32767"; do
  set -- $spec; f=$d/ncu-$v-$1-$2-$3.txt
  timeout 100 ncu -k regex:"register_kernel|copy_at_phases" --launch-skip 4 --launch-count 4 $S $C/rfb-$v --op $1 --dtype $2 --cols $3 --misalign --reps 3 --budget-ms 1 --variant fused --no-check > $f 2>&1
  echo "== $v $spec rc=$?"; grep -E "^  [a-z_ ]*void|Duration|Executed Instructions  |Issued Warp Per|Registers Per|L1/TEX Hit|Achieved Occ|DRAM Throughput" $f | sed 's/  */ /g' | cut -c1-150
done; done
tar czf $OUT/$name.tgz -C /tmp $name
