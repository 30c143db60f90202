#!/bin/bash
# call71h.sh: on either card, carrying .device-carry/s80: N (main at 3dcf886, the session's start)
# against M3 (main at c7ac06f, its end) in rowfuse-bench, the four ops, fp16 and bf16, at the
# sixty-ninth session's widths and those this session moved (aligned and one element off), then M3
# against V66 (v66-layernorm-narrow.diff) at layernorm 128-192; every build checked against unfused
# first (../2026-12-02-fifty-fourth/run1.sh), two passes interleaved.
# $OUT/callM3.tgz, $OUT/callV66.tgz and the tables on stdout.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s80; F=../2026-12-02-fifty-fourth/run1.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16,bf16 PASSES=2 \
  AL=16,32,48,64,96,128,136,144,152,160,192,200,224,248,256,320,384,448,512,640,768,1024,1536,2048,2560,3072,4096,5120,6144,7168,8192,10240,12288,16384,20480,20488,24576,24584,28672,32768,49152,57344,65536,81928,98304,114688,131072,131080,147456,163840,163848,180224,196608,229376,262144 \
  MIS=300,601,1000,2577,4601,9201,22001,53001,90001,100003,106001,150001,190001 \
  bash $F callM3 $C N M3
OPS=layernorm DTYPES=fp16,bf16 AL=128,136,144,152,160,168,176,192 MIS=137,151 \
  bash $F callV66 $C M3 V66
