#!/bin/bash
# call1.sh: main (M) against V (layernorm's cluster rows exchanging once), slim rowfuse-bench
# builds carried in .device-carry/s57: the op in fp16 and fp32, the residual blocks in fp16.
cd "$(dirname "$0")"
R=../2026-12-02-fifty-fourth/run1.sh C=$PWD/../../../.device-carry/s57
OPS=layernorm DTYPES=fp16,fp32 PASSES=2 \
  AL=4096,20488,24000,28672,32768,45000,49152,57344,65536,81920,100000,131072,163840,262144 \
  MIS=24001,100003,200003 bash $R call1-ln $C M V
OPS=residual,residual_tee DTYPES=fp16 PASSES=2 \
  AL=24000,32768,40000,65536,100000,131072,200000,262144 \
  MIS=40001,100003,200003 bash $R call1-res $C M V
