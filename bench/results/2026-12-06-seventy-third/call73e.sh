#!/bin/bash
# call73e.sh: on the device, V76 (main's layernorm kernels) against V87 (a row for phased plans alone
# at 40968-65543: 8 x 256 in 4 under two, one cluster a row tile, read straight, gamma and beta two
# packs ahead) and V89 (the 262144-column row passed by off the grid for 8 x 256 in 16 of that form):
# layernorm fp16 / bf16 one element off at the widths they take and neighbours, aligned controls,
# through ../2026-12-02-fifty-fourth/run1.sh. Carry .device-carry/s97.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/s97
OPS=layernorm DTYPES=fp16,bf16 AL=1024,53248,262144 \
MIS=1000,36001,41001,45001,49001,53001,60001,65001,70001,190001,196617,200003,220001,240001,262143 \
  bash ../2026-12-02-fifty-fourth/run1.sh call73e $C V76 V87 V89
