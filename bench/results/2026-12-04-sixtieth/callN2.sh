#!/bin/bash
# callN2.sh NAME: on the device, main (M) against N2 (this session's tables: C', L and
# log-softmax's 16-bit 193-224 columns on the 256-column row; the op's code main's) from the slim
# builds in .device-carry/s60, softmax and log-softmax fp16 and bf16, aligned at 24 widths 32-262144
# and off the grid at 6, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s60/rfb-M $R/.device-carry/s60/rfb-N2 /tmp/c/
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 MIS=200,300,700,1000,100003,110001 \
  AL=32,64,96,128,136,152,160,176,192,200,208,224,240,256,512,900,1024,4096,32768,65536,122880,131072,229376,262144 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M N2
