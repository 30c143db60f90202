#!/bin/bash
# callA2.sh NAME: on the device, main (M) against A2 (16-byte packs stored as one unsigned __int128:
# no 32-bit store splits) from prepare-A2.sh's builds in .device-carry/$GROUP (default s63): OPS
# (default softmax, log-softmax, rmsnorm, layernorm; attention,residual for builds of the
# pipelines), fp16 and bf16; aligned at the
# widths whose kernels A2 changes most (group rows of a run-time group, 65-2048 columns; rows sized
# at launch, 4097-16384; layernorm's 49153-65536 row, whose kernel spills more) and controls, off
# the grid at 4, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
G=${GROUP:-s63}
mkdir -p /tmp/c && cp $R/.device-carry/$G/rfb-M $R/.device-carry/$G/rfb-A2 /tmp/c/
OPS=${OPS:-softmax,log_softmax,rmsnorm,layernorm} DTYPES=fp16,bf16 PASSES=2 \
  MIS=300,700,1000,3500 \
  AL=96,136,200,256,320,448,640,768,1024,1536,2048,4096,6144,12288,16384,32768,57344,65536 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M A2
