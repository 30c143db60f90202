#!/bin/bash
# call71c.sh: on an H200 (on any other card it stops), carrying .device-carry/s75 (rfb-M: main at
# e285f24; rfb-N: main at 3dcf886; rfb-V63). Every build checked against unfused first
# (../2026-12-02-fifty-fourth/run1.sh), two passes interleaved, fp16 and bf16:
# M against N where V59 and V60 moved an H200's plans, then N against V63 where V63 moves them
# (log-softmax 131080-196615 aligned and one element off, its narrow rows, rmsnorm one element off
# at 98312-114695 and 196616-262144). $OUT/*.tgz and the tables on stdout.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s75; F=../2026-12-02-fifty-fourth/run1.sh
dev=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1); echo "device: $dev"
[[ $dev == *H200* ]] || { echo "not an H200: nothing run"; exit 0; }
OPS=softmax,log_softmax DTYPES=fp16,bf16 AL=65536,98312,106496,114688,131072 \
  MIS=53001,60001,65535,100003,106001,114687 bash $F callH200 $C M N
OPS=log_softmax DTYPES=fp16,bf16 \
  AL=136,144,152,160,200,248,256,131072,131080,147456,163840,163848,180224,196608 \
  MIS=150001,170001,190001 bash $F callV63ls-h200 $C N V63
OPS=rmsnorm DTYPES=fp16,bf16 AL=114688,131072,262144 \
  MIS=100003,106001,114687,200003,229377,262143 bash $F callV63rms-h200 $C N V63
