#!/bin/bash
# callP.sh [pipelines]: on the device, ncu of one launch of main's fused kernel (rowfuse-bench BIN,
# default .device-carry/s67/rfb-M: fp16 and bf16 ops) at the cells of issue 11 that the sixty-
# seventh session's full run left furthest under 0.97 or QuACK, at ncu's locked clocks: the
# sections, every stall reason a issue, DRAM bytes, and the SASS source page. Cases are
# op:dtype:cols[:m] (m: --misalign, one element off and ld = cols + 1); CASES overrides the list.
# $OUT/callP.tgz; a summary line per case on stdout. `pipelines`: issue 12's cells instead, with
# .device-carry/s67/rfb-Mp (main's fp16 ops and pipelines, prepare-lease.sh step 4), into
# $OUT/callP2.tgz. BIN overrides the binary. After ../2026-12-03-fifty-ninth's ncuq.sh (in its
# tar.xz), with the dtype, the misaligned rows and the pipelines added.
set -u
cd "$(dirname "$0")"; R=$PWD/../../..
# Issue 12's furthest misses (fp16, full run of the sixty-seventh session): attention 256 / 262144
# (0.79 / 0.69), the residual block 256 / 32768 / 131072 (0.82 / 0.71 / 0.55), its tee'd form at
# 131072 (0.65), layernorm -> fp8 64 / 512 / 32768 (0.83 / 0.85 / 0.82).
PIPELINE_CASES="attention:fp16:256 attention:fp16:262144 residual:fp16:256 residual:fp16:32768 residual:fp16:131072 residual_tee:fp16:131072 layernorm_fp8:fp16:64 layernorm_fp8:fp16:512 layernorm_fp8:fp16:32768"
OP_CASES="layernorm:fp16:64 layernorm:fp16:32768 layernorm:bf16:65536 rmsnorm:fp16:262144 softmax:fp16:262144 log_softmax:fp16:65536 softmax:fp16:136 log_softmax:fp16:320 softmax:fp16:300:m layernorm:fp16:300:m layernorm:fp16:700:m"
if [ "${1:-}" = pipelines ]; then
  N=callP2; B=${BIN:-$R/.device-carry/s67/rfb-Mp}; CASES=${CASES:-$PIPELINE_CASES}
else
  N=callP; B=${BIN:-$R/.device-carry/s67/rfb-M}; CASES=${CASES:-$OP_CASES}
fi
d=/tmp/$N; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
S="--section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats --section SourceCounters"
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.avg,smsp__warps_launched.sum'
for spec in $CASES; do
  IFS=: read -r op dtype cols mis <<< "$spec"
  name=r-$op-$dtype-$cols${mis:+-m}
  timeout 120 ncu -k regex:"register_kernel|cluster_kernel|streaming_kernel" --launch-skip 2 \
    --launch-count 1 $S $M -o $d/$name $B --op $op --dtype $dtype --cols $cols \
    ${mis:+--misalign} --reps 1 --budget-ms 1 --variant fused --no-check > $d/$name.log 2>&1
  echo "$name rc=$?"
done
for f in $d/*.ncu-rep; do
  b=${f%.ncu-rep}
  ncu -i $f --page details > $b-details.txt 2>&1
  ncu -i $f --page source --csv --print-source sass > $b-source.csv 2> /dev/null
  ncu -i $f --page raw --csv > $b-raw.csv 2> /dev/null
  echo "== ${b##*/}"
  grep -E "Duration|DRAM Throughput|Registers Per|Grid Size|Block Size|Cluster Size|Achieved Active Warps|Dynamic Shared|Issue Slots Busy|No Eligible" $b-details.txt | sed 's/  */ /g' | cut -c1-120
done
rm -f $d/*.ncu-rep; xz -T0 $d/*.csv
tar czf $OUT/$N.tgz -C /tmp $N
