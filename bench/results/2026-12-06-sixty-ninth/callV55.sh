#!/bin/bash
# callV55.sh: on an H100, carrying .device-carry/s69b: rfb-M (main at 600927d, build/device-slim),
# rfb-V55 and rfb-V56 (../2026-12-05-sixty-seventh/prepare-variants.sh V55 V56 over main's tree with
# the diffs here applied, in /work/var/s67/V55 and V56), gpu_cluster_engine and gpu_softmax_shapes.
# Runs the two suites that run V51's rows, then main (M) against V55 (h100-takes-measured-rows-V55.diff:
# the rows for devices of wide memory that won on an H100 in V53, on_h100_too) and V56 (V55 and
# log-softmax's narrow rows from 96 columns), fp16 and bf16, the four ops (V56: log-softmax to 512
# columns), every result checked against unfused first, two passes interleaved, at V53's widths
# (../2026-12-02-fifty-fourth/run1.sh). $OUT/suites.tgz, $OUT/callV55.tgz, $OUT/callV56.tgz.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s69b; mkdir -p /tmp/suites
for s in gpu_cluster_engine gpu_softmax_shapes; do
  start=$(date +%s); $C/$s > /tmp/suites/$s.log 2>&1; rc=$?
  echo "$s rc=$rc $(($(date +%s) - start)) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites/$s.log | tr '\n' ' ')"
done
tar czf $OUT/suites.tgz -C /tmp suites
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16,bf16 PASSES=2 \
  AL=16,32,48,64,96,128,136,160,192,200,224,256,320,384,448,512,640,768,1024,1536,2048,2560,3072,4096,5120,6144,7168,8192,10240,12288,16384,20480,24576,24584,28672,32768,49152,57344,65536,98304,114688,131072,196608,262144 \
  MIS=300,601,1000,2577,4601,9201,22001,53001,100003,106001 \
  bash ../2026-12-02-fifty-fourth/run1.sh callV55 $C M V55
# V56 moves log-softmax's widths to 512 alone.
OPS=log_softmax DTYPES=fp16,bf16 PASSES=2 AL=16,32,48,64,96,128,136,160,192,200,224,256,320,384,448,512 \
  MIS=136,300 bash ../2026-12-02-fifty-fourth/run1.sh callV56 $C M V56
