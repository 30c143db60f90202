#!/bin/bash
# call74b.sh: on the device, main's kernels for log-softmax and rmsnorm (M74: on an H100 the same
# plans and kernels as main at b9cbfc8 for these ops, plan_dump) against V96 (log-softmax's 2560- and
# 3072-column rows with phased kernels) and V97 (rmsnorm's 6 x 256 rows' phased plans on staged
# persistent rows under two), through ../2026-12-02-fifty-fourth/run1.sh. Carry .device-carry/t74b.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/t74b
OPS=log_softmax DTYPES=fp16,bf16 AL=2560,3072,4096 MIS=2001,2101,2501,2577,3001,3081,4001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call74b-ls $C M74 V96
OPS=rmsnorm DTYPES=fp16,bf16 AL=49152,98304,196608 \
MIS=30001,36001,45001,49151,53001,70001,75001,90001,98303,100003,170001,190001,196613,200003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call74b-rn $C M74 V97
