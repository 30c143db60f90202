#!/bin/bash
# call71k.sh: on either card, carrying .device-carry/s82: row_shapes.cu round 55 (build-round.sh 55:
# rs-1-p0o0, layernorm fp16), one line a case into $OUT/r55.tgz and stdout.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s82
d=/tmp/r55; mkdir -p $d; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
timeout 200 $C/rs-1-p0o0 > $d/rs-1-p0o0.txt 2>&1; echo "rs-1-p0o0 rc=$?"
tar czf $OUT/r55.tgz -C /tmp r55
grep -h ratio $d/rs-*.txt | cut -c1-130
