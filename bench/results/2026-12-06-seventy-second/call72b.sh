#!/bin/bash
# call72b.sh: on the device, M4 (main at f3714e4) against V69 (V68 on cluster rows alone) and V70
# (V69 and rmsnorm's 6 x 256 rows' phased kernels under a cap of two): the four ops fp16 / bf16 one
# element off at call72a's widths, three aligned controls. Carry .device-carry/s84 (rfb-M4, rfb-V69,
# rfb-V70 from prepare-variants.sh).
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16,bf16 AL=1024,53248,150000 \
MIS=300,601,1000,1500,2577,4601,7001,9201,14001,18001,22001,30001,36001,45001,53001,60001,75001,90001,100003,106001,120001,140001,150001,175001,190001,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call72b $R/.device-carry/s84 M4 V69 V70
