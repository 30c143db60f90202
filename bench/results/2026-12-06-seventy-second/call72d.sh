#!/bin/bash
# call72d.sh: on the device, V69 against V72 (rmsnorm's gamma from copies at each phase on the
# cluster kernels under caps of one or two blocks, chosen at compile time): rmsnorm and layernorm
# fp16 / bf16 one element off, three aligned controls. Carry .device-carry/s86 (rfb-V69, rfb-V72).
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=rmsnorm,layernorm DTYPES=fp16,bf16 AL=1024,53248,150000 \
MIS=300,1000,4601,9201,18001,22001,30001,36001,45001,53001,60001,75001,90001,100003,106001,120001,140001,150001,175001,190001,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call72d $R/.device-carry/s86 V69 V72
