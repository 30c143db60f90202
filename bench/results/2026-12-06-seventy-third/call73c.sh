#!/bin/bash
# call73c.sh: on the device, V76 (main's kernels at cf3203f) against V80 (phased-only rows of 8
# lanes to 256 and 320 columns): the four ops fp16 / bf16 one element off at the narrow widths
# the rows take and their neighbours, aligned controls, through ../2026-12-02-fifty-fourth/run1.sh.
# Carry .device-carry/s94.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/s94
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16,bf16 AL=128,256,320,1024 \
MIS=136,160,200,232,255,263,264,280,300,327,329,1000 \
  bash ../2026-12-02-fifty-fourth/run1.sh call73c $C V76 V80
# ncu of main's kernels on softmax's and log-softmax's 262144-column row, on the grid and one element
# off (../2026-12-05-sixty-eighth/callP.sh: one launch each, the sections and the SASS source page).
BIN=$C/rfb-V76 CASES="softmax:fp16:240000 softmax:fp16:240001:m log_softmax:fp16:200000 log_softmax:fp16:200003:m" \
  bash ../2026-12-05-sixty-eighth/callP.sh | grep -E "rc=|Duration|Registers Per|Executed Ins"
