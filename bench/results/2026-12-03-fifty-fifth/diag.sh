#!/bin/bash
# diag.sh NAME BIN: on the device, main's slim rowfuse-bench build BIN (fp16 ops) at the widths
# issue 11 misses off the grid (cluster rows at 100003, narrow rows at 136-200, 3000) beside the
# aligned widths of the same rows, two passes; then ncu of the same kernels one launch each.
cd "$(dirname "$0")"; name=$1; B=$2; d=/tmp/$name; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op softmax,rmsnorm,layernorm --dtype fp16"
for pass in 1 2; do
  $B $op --cols 136,200,3000,98304,100000,131072 --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-al-$pass.csv > /dev/null 2>&1
  $B $op --cols 136,200,3000,98311,100003 --variant fused,copy --no-check --budget-ms 30 --misalign --format csv --out $d/time-mis-$pass.csv > /dev/null 2>&1
done
python3 - $d <<'PY'
import csv, sys, glob, collections
r = collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1] + '/time-*.csv')):
    lay = 'al' if '-al-' in f else 'mis'
    for row in csv.DictReader(open(f)):
        if row.get('impl') == 'fused':
            r[(row['op'], lay, int(row['cols']))].append(float(row['ratio_to_copy']))
for k in sorted(r): print(*k, ' '.join('%.3f' % v for v in r[k]))
PY
S="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis"
for spec in "softmax 100003 --misalign" "softmax 100000" "layernorm 100003 --misalign" "layernorm 100000" "softmax 136 --misalign" "softmax 136"; do
  set -- $spec; f=$d/ncu-$1-$2$3.txt
  timeout 90 ncu -k regex:"register_kernel|cluster_kernel" --launch-skip 2 --launch-count 1 $S $B --op $1 --dtype fp16 --cols $2 $3 --reps 1 --budget-ms 1 --variant fused --no-check > $f 2>&1
  echo "== $spec rc=$?"; grep -E "Duration|DRAM Throughput|Mem Busy|Issued Warp Per|Executed Instructions  |Registers Per|L1/TEX Hit|L2 Hit|Achieved Occ|No Eligible|Grid Size|Cluster Size|Block Size" $f | cut -c1-120 | head -16
done
tar czf $OUT/$name.tgz -C /tmp $name
