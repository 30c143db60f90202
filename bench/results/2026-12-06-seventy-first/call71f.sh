#!/bin/bash
# call71f.sh: on either card, carrying .device-carry/s77: M2 (main at 763310c) against V64
# (v64.diff) in rowfuse-bench, fp16 and bf16, every build checked against unfused first
# (../2026-12-02-fifty-fourth/run1.sh), two passes interleaved. $OUT/callV64*.tgz, tables on stdout.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s77; F=../2026-12-02-fifty-fourth/run1.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OPS=softmax DTYPES=fp16,bf16 AL=131072,131080,147456,163840,163848,180224,196608,262144 \
  MIS=150001,170001,190001 bash $F callV64sm $C M2 V64
OPS=log_softmax DTYPES=fp16,bf16 AL=16384,20488,22528,24576,65536,81928,90112,98304,114688 \
  MIS=22001,90001,98303 bash $F callV64ls $C M2 V64
