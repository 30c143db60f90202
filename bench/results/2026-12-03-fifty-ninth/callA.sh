#!/bin/bash
# callA.sh NAME [BUILD]: on the device, main (M) against BUILD (A: every row's phases padded, a
# survey build; F: the rows A measured to win, the tree committed), softmax and log-softmax fp32
# and the attention pipeline fp16, from the slim builds in .device-carry/s59
# (../2026-12-02-fifty-fourth/run1.sh), two passes each.
cd "$(dirname "$0")"; R=$PWD/../../..; B=${2:-A}
mkdir -p /tmp/c && cp $R/.device-carry/s59/rfb-* /tmp/c/
AL=32,64,100,128,200,224,240,256,456,480,512,776,900,1000,1024,2048,3080,3500,4096,7176,8192,14000,16384,24584,28672,30000,32768,60000,65536,98312,114688,131072,262144
OPS=softmax,log_softmax DTYPES=fp32 PASSES=2 MIS=300,700,1000,3500,4097,32767,100003 AL=$AL \
  bash ../2026-12-02-fifty-fourth/run1.sh $1-ops /tmp/c M $B
OPS=attention DTYPES=fp16 PASSES=2 MIS=300,1000,4097,32767 AL=$AL \
  bash ../2026-12-02-fifty-fourth/run1.sh $1-attention /tmp/c M $B
