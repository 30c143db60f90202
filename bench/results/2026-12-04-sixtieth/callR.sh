#!/bin/bash
# callR.sh NAME: on the device, row_shapes.cu round 50 (build-r50.sh) from .device-carry/s60:
# softmax and log-softmax fp16 exchanging once with and without the padding, softmax exchanging
# twice unpadded, rmsnorm fp16; one line a case (ratio to a copy timed in the same process).
cd "$(dirname "$0")"; R=$PWD/../../..; d=/tmp/$1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for b in rs-0-p1o1 rs-0-p0o1 rs-0-p0o0 rs-10-p1o1 rs-10-p0o1 rs-3-p0o0; do
  $R/.device-carry/s60r/$b > $d/$b.txt 2>&1; echo "$b rc=$?"
done
tar czf $OUT/$1.tgz -C /tmp $1
