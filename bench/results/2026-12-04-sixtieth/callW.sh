#!/bin/bash
# callW.sh NAME: on the device, which change moved log-softmax 16-bit at 160 columns (callN1: -0.09):
# main (M), L2 (the finish without a select, no row dropped) and N (L3 and the 224-column row
# dropped), log-softmax fp16 / bf16 at 96-256 columns, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s60/rfb-* /tmp/c/
OPS=log_softmax DTYPES=fp16,bf16 PASSES=2 MIS=200 AL=96,128,136,144,152,160,176,192,200,224,256 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M L2 N
