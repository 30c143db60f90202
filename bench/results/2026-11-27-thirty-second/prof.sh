#!/bin/bash
# ncu on the v2 build's layernorm fp16: aligned against misaligned, one launch each.
mkdir -p /tmp/bin; python3 -c "import lzma; open('/tmp/bin/rfb','wb').write(lzma.open('.device-carry/p3/rfb-new-fp16.xz').read())"; chmod +x /tmp/bin/rfb
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
for c in "40961 --misalign" "40960" "16393 --misalign" "16384" "65545 --misalign" "65536"; do
  set -- $c; name=layernorm-$1${2:+-mis}
  timeout 150 ncu --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section LaunchStats --section Occupancy --section InstructionStats --section SourceCounters -k regex:register_kernel -c 1 /tmp/bin/rfb --op layernorm --dtype fp16 --cols $1 $2 --variant fused --no-check --reps 1 > $OUT/$name.txt 2>&1
  echo "$name rc=$?" >> $OUT/log.txt
done
cat $OUT/log.txt
