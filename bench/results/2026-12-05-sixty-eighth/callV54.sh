#!/bin/bash
# callV54.sh: on an H200, with .device-carry/s67 carried (prepare-lease.sh, then
# prepare-variants.sh V54): main (M) against V54 (h200-takes-h100-rows-V54.diff: no device plans the
# rows for devices of wide memory, so an H200 takes an H100's), in rowfuse-bench, fp16, the four
# ops, two passes interleaved, every result checked first, at the widths where the H200 has rows
# of its own (the sixty-seventh session's V53 list) aligned and off the grid
# (../2026-12-02-fifty-fourth/run1.sh). $OUT/callV54.tgz.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16 PASSES=2 \
  AL=32,64,96,128,160,192,256,320,384,448,512,640,768,1024,2048,2560,3072,4096,5120,6144,7168,8192,10240,12288,16384,20480,24576,28672,32768,49152,57344,65536,98304,114688,131072,196608,262144 \
  MIS=601,2577,4601,9201,22001,53001,106001 \
  bash ../2026-12-02-fifty-fourth/run1.sh callV54 $R/.device-carry/s67 M V54
