#!/bin/bash
# call72a.sh: on the device, V68 (staged phased rows' edge elements loaded a row ahead) against M4
# (main at f3714e4): the four ops fp16 / bf16 one element off (ld = cols + 1) at the widths below
# and three aligned controls, through ../2026-12-02-fifty-fourth/run1.sh (checks first, two passes
# interleaved). Carry .device-carry/s84 (rfb-M4, rfb-V68 from prepare-variants.sh V68 M4).
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16,bf16 AL=1024,53248,150000 \
MIS=300,601,1000,1500,2577,4601,7001,9201,14001,18001,22001,30001,36001,53001,60001,75001,90001,100003,106001,120001,140001,150001,190001,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call72a $R/.device-carry/s84 M4 V68
