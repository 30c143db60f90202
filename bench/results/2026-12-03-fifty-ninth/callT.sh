#!/bin/bash
# callT.sh NAME: on the device, main's softmax family (M) against T (padded, unguarded loops;
# interleaved max and sums) from the slim builds in .device-carry/s59, fp16 and fp32, aligned at
# 22 widths 32-262144 and off the grid at 5, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s59/rfb-* /tmp/c/
OPS=softmax,log_softmax DTYPES=${DTYPES:-fp16,fp32} PASSES=2 MIS=300,1000,4097,32767,100003 \
  AL=32,64,128,200,256,456,512,776,1000,1024,2048,3080,4096,7176,8192,16384,24584,32768,65536,98312,131072,262144 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M ${BUILDS:-T}
