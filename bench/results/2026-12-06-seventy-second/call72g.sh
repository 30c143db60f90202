#!/bin/bash
# call72g.sh: on the device, main (rfb-V73: edef3fa's kernels) against V74 (phased plans pass by the
# rows whose phased kernels spill): rmsnorm and layernorm fp16 / bf16 one element off at the widths
# V74 moves and their neighbours, three aligned controls. Carry .device-carry/s89.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=rmsnorm,layernorm DTYPES=fp16,bf16 AL=1024,53248,150000 \
MIS=30001,33001,36001,41001,45001,49001,53001,60001,65001,70001,75001,90001,97001,106001,160001,165001,175001,190001,196001,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call72g $R/.device-carry/s89 V73 V74
