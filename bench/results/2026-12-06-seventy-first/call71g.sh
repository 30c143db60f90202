#!/bin/bash
# call71g.sh: on either card, carrying .device-carry/s79: row_shapes.cu round 54 (build-round.sh 54:
# rs-3-p0o0), then M2 (main at 763310c) against V65 (M2 with softmax's 16-bit 163840-column row
# padded) in rowfuse-bench, fp16 and bf16, every build checked against unfused first
# (../2026-12-02-fifty-fourth/run1.sh), two passes interleaved. $OUT/r54.tgz, $OUT/callV65.tgz.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s79; F=../2026-12-02-fifty-fourth/run1.sh
d=/tmp/r54; mkdir -p $d; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
timeout 200 $C/rs-3-p0o0 > $d/rs-3-p0o0.txt 2>&1; echo "rs-3-p0o0 rc=$?"
tar czf $OUT/r54.tgz -C /tmp r54
grep -h ratio $d/rs-*.txt | awk '{print $1, $3, $4, $5, $7, $8, $9, $10, $12, $14, $NF}'
OPS=softmax DTYPES=fp16,bf16 AL=131072,131080,147456,163840 MIS=150001,140001 \
  bash $F callV65 $C M2 V65
