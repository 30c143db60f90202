#!/bin/bash
# callL2.sh NAME: on the device, main (M) against L2 (L and log-softmax's finish without a select)
# from the slim builds in .device-carry/s60, softmax and log-softmax fp16, bf16 and fp32, aligned
# at 21 widths 32-262144 and off the grid at 7, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s60/rfb-M $R/.device-carry/s60/rfb-L2 /tmp/c/
OPS=softmax,log_softmax DTYPES=fp16,bf16,fp32 PASSES=2 MIS=300,700,1000,3500,4097,32767,100003 \
  AL=32,64,128,200,224,256,512,900,1024,2048,3500,4096,8192,16384,32768,65536,98312,122880,131072,229376,262144 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M L2
