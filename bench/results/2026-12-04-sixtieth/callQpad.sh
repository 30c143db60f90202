#!/bin/bash
# callQpad.sh NAME: on the device, main (M) against Q (the committed tables and log-softmax's 16-bit
# rows at 129-192 columns padded) from the slim builds in .device-carry/s60, log-softmax and
# softmax fp16 / bf16 at 96-256 columns and controls, two passes (../2026-12-02-fifty-fourth/run1.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s60/rfb-M $R/.device-carry/s60/rfb-Q /tmp/c/
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 MIS=136,152,300 \
  AL=96,128,129,136,144,152,160,168,176,184,192,200,224,256,512,131072 \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M Q
