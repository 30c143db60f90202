#!/bin/bash
# callP.sh NAME: on the device, main's softmax family (M) against P (padded rows;
# tuning::padded) from the slim builds in .device-carry/s59, fp16 and bf16, aligned at
# 33 widths 32-262144 and off the grid at 7, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s59/rfb-* /tmp/c/
OPS=softmax,log_softmax DTYPES=${DTYPES:-fp16,bf16} PASSES=2 MIS=300,700,1000,3500,4097,32767,100003 \
  AL=32,64,100,128,200,224,240,256,456,480,512,776,900,1000,1024,2048,3080,3500,4096,7176,8192,14000,16384,24584,28672,30000,32768,60000,65536,98312,114688,131072,262144 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M ${BUILDS:-P}
