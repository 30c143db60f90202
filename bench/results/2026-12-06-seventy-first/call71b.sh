#!/bin/bash
# call71b.sh: on the device, carrying .device-carry/s74 (rfb-N: main at 3dcf886; rfb-V63:
# prepare-variants.sh over /work/var/s67/V63, v63.diff). N against V63, fp16 and bf16, every build
# checked against unfused first (../2026-12-02-fifty-fourth/run1.sh), two passes interleaved:
# log-softmax at the narrow and wide widths V63 moves, rmsnorm at 98312-262144, aligned and one
# element off. $OUT/callV63ls.tgz, $OUT/callV63rms.tgz and the tables on stdout.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s74; F=../2026-12-02-fifty-fourth/run1.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
OPS=log_softmax DTYPES=fp16,bf16 \
  AL=136,144,152,160,200,248,256,131072,131080,147456,163840,163848,180224,196608,262144 \
  MIS=137,150001,170001,190001 bash $F callV63ls $C N V63
OPS=rmsnorm DTYPES=fp16,bf16 AL=98312,106496,114688,122880,131072,196616,229376,262144 \
  MIS=100003,106001,114687,200003,229377,262143 bash $F callV63rms $C N V63
