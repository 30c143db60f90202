#!/bin/bash
# callV.sh: on an H100, with .device-carry/s67 carried (build-r51.sh, prepare-variants.sh V51 V52 V53):
# row_shapes round 51 (callR51.sh r51), then main (M) against V51 (quack-shapes-V51.diff: softmax's
# and log-softmax's 16-bit rows at 262144) and V52 (rmsnorm-shared-gamma-V52.diff: rmsnorm's) in
# rowfuse-bench, fp16 and bf16, every result checked against unfused first, two passes
# interleaved: aligned at the changed rows' widths (196616-262144) and controls (32768, 131072),
# off the grid at the same rows' widths and at 1000 (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
bash callR51.sh r51
OPS=softmax,log_softmax,rmsnorm DTYPES=fp16,bf16 PASSES=2 \
  AL=32768,131072,196616,229376,262144 MIS=1000,200003,262143 \
  bash ../2026-12-02-fifty-fourth/run1.sh callV $R/.device-carry/s67 M V51 V52
# V53 (h100-takes-wide-rows-V53.diff): the H100 plans the rows for devices of wide memory too, at
# the widths those rows were measured for on the H200 (fp16), aligned and off the grid.
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16 PASSES=2 \
  AL=32,64,96,128,160,192,256,320,384,448,512,640,768,1024,2048,2560,3072,4096,5120,6144,7168,8192,10240,12288,16384,20480,24576,28672,32768,49152,57344,65536,98304,114688,131072,196608,262144 \
  MIS=601,2577,4601,9201,22001,53001,106001 \
  bash ../2026-12-02-fifty-fourth/run1.sh callV53 $R/.device-carry/s67 M V53
