#!/bin/bash
# callR51.sh NAME: on the device, row_shapes.cu round 51 (build-r51.sh) from .device-carry/s67:
# one line a case (ratio to a copy timed in the same process) into $OUT/NAME.tgz and stdout.
cd "$(dirname "$0")"; R=$PWD/../../..; d=/tmp/$1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for b in rs-0-p1o1 rs-10-p1o1 rs-3-p0o0 rs-1-p0o0 rs-4-p0o0; do
  timeout 45 $R/.device-carry/s67/$b > $d/$b.txt 2>&1; echo "$b rc=$?"
done
tar czf $OUT/$1.tgz -C /tmp $1
grep -h ratio $d/rs-*.txt | awk '{print $1, $3, $4, $5, $6, $7, $8, $(NF-8), $(NF-6), $(NF-4), $(NF-2), $NF}'
