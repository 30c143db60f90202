#!/bin/bash
# call71l.sh: on either card, carrying .device-carry/s83: M3 (main at c7ac06f) against V67
# (v67-layernorm-98304.diff) at layernorm 16-bit 65536-131072, fp16 and bf16, every build checked
# against unfused first (../2026-12-02-fifty-fourth/run1.sh), two passes. $OUT/callV67.tgz.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s83; F=../2026-12-02-fifty-fourth/run1.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OPS=layernorm DTYPES=fp16,bf16 AL=65536,73728,81928,90112,98304,106496,131072 MIS=90001 \
  bash $F callV67 $C M3 V67
