#!/bin/bash
# callD.sh NAME: on the device, main (M: af14ba7) against PS2 (the exchange's wait suspended, and the
# padding in the raw input on padded rows of one block or exchanging once, not read from a staging slot) from the slim builds in
# .device-carry/s61: softmax, log-softmax, rmsnorm and layernorm fp16 and bf16, aligned at 20 widths
# 32-262144 and off the grid at 4, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s61/rfb-M $R/.device-carry/s61/rfb-PS2 /tmp/c/
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16,bf16 PASSES=2 MIS=300,700,3500,100003 \
  AL=32,64,128,136,160,176,192,224,256,1024,4096,16384,32768,65536,98312,122880,131072,196616,229376,262144 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M PS2
