#!/bin/bash
# callE.sh NAME: on the device, PS2 (main at 9c1d032) against G (softmax's fast-path terms in one
# FFMA on the rows of one shift, each row's line chosen by its max: see NOTES) from the slim builds
# in .device-carry/s61, softmax and log-softmax fp16 and bf16, aligned at 20 widths 32-262144 and off
# the grid at 4, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s61/rfb-* /tmp/c/
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 MIS=300,700,3500,100003 \
  AL=32,64,128,136,160,176,192,224,256,1024,4096,16384,32768,65536,98312,122880,131072,196616,229376,262144 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c PS2 ${VARIANTS:-G}
