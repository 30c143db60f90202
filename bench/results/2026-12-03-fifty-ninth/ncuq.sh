#!/bin/bash
# ncuq.sh NAME quack | NAME rowfuse BIN: on the device, ncu of one launch of QuACK's forward (once
# the peers' wheels are in /tmp/peer-wheels: .peer-wheels/a and b, two calls in a row) or of
# rowfuse-bench BIN's fused kernel, on the same cases, fp16, 2^27 elements, at ncu's locked clocks:
# the sections, every stall reason a issue, DRAM bytes and the source page (SASS with executed
# instructions and stall samples). NAME.tgz under $OUT.
set -u
cd "$(dirname "$0")"; name=$1; who=$2; B=${3:-}; d=/tmp/$name; mkdir -p $d
# QuACK installed by an earlier call of the same lease (install.sh joins the wheels once) is reused.
if [ $who = quack ]; then
  if [ -d /tmp/peer-site ]; then export PYTHONPATH=/tmp/peer-site/nvidia_cutlass_dsl/dsl_packages:/tmp/peer-site
  else export PYTHONPATH=$(bash /tmp/peer-wheels/install.sh); fi
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
S="--section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats --section SourceCounters"
M='--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_active.avg,smsp__warps_launched.sum'
for spec in ${CASES:-softmax:131072 rmsnorm:131072 softmax:65536}; do
  set -- ${spec/:/ }
  if [ $who = quack ]; then
    timeout 240 ncu --profile-from-start off $S $M -o $d/q-$1-$2 python3 q.py $1 $2 > $d/q-$1-$2.log 2>&1
    echo "quack $1 $2 rc=$?"; continue
  fi
  timeout 120 ncu -k regex:"register_kernel|cluster_kernel" --launch-skip 2 --launch-count 1 $S $M -o $d/r-$1-$2 \
    $B --op $1 --dtype fp16 --cols $2 --reps 1 --budget-ms 1 --variant fused --no-check > $d/r-$1-$2.log 2>&1
  echo "rowfuse $1 $2 rc=$?"
done
for f in $d/*.ncu-rep; do
  b=${f%.ncu-rep}
  ncu -i $f --page details > $b-details.txt 2>&1
  ncu -i $f --page source --csv --print-source sass > $b-source.csv 2> /dev/null
  ncu -i $f --page raw --csv > $b-raw.csv 2> /dev/null
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Registers Per|Grid Size|Block Size|Cluster Size|Max Active Clusters|Achieved Active Warps|Dynamic Shared" $b-details.txt | sed 's/  */ /g' | cut -c1-160
done
rm -f $d/*.ncu-rep; xz -T0 $d/*.csv
tar czf $OUT/$name.tgz -C /tmp $name
