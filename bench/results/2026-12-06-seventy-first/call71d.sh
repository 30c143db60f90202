#!/bin/bash
# call71d.sh: on the device, carrying .device-carry/s76: row_shapes.cu round 53 (build-round.sh 53),
# one line a case (ratio to a copy timed in the same process) into $OUT/r53.tgz and stdout.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s76; d=/tmp/r53; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for b in rs-10-p1o1 rs-0-p1o1; do
  timeout 200 $C/$b > $d/$b.txt 2>&1; echo "$b rc=$?"
done
tar czf $OUT/r53.tgz -C /tmp r53
grep -h ratio $d/rs-*.txt | awk '{print $1, $3, $4, $5, $7, $8, $9, $10, $(NF-8), $(NF-6), $(NF-4), $(NF-2), $NF}'
