#!/bin/bash
# callL.sh NAME: on the device, main (M) against L (C' and log-softmax's 114688-column row for
# devices of wide memory with its phased kernel) from the slim builds in .device-carry/s60,
# softmax and log-softmax fp16 and bf16, aligned at callC.sh's widths and off the grid at
# 300-110001, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s60/rfb-M $R/.device-carry/s60/rfb-L /tmp/c/
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 MIS=300,32767,100003,110001 \
  AL=32768,65536,98312,114688,122880,131072,196616,229376,262144 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M L
