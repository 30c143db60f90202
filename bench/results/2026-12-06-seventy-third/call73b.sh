#!/bin/bash
# call73b.sh: on the device, V76 (main at cf3203f's kernels) against V77 (the norms' gamma and beta
# read on phased rows without a branch a pack) on the norms, and against V78 (softmax's and
# log-softmax's 262144-column phased kernels under a cap of two) on softmax and log-softmax, fp16 /
# bf16, one element off and aligned controls, through ../2026-12-02-fifty-fourth/run1.sh. Carry
# .device-carry/s93.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/s93
OPS=rmsnorm,layernorm DTYPES=fp16,bf16 AL=1024,53248,150000 \
MIS=300,1000,7001,14001,22001,30001,36001,45001,53001,75001,100003,120001,150001,190001,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call73b-norms $C V76 V77
OPS=softmax,log_softmax DTYPES=fp16,bf16 AL=1024,196608,262144 \
MIS=1000,190001,200003,220001,240001,250001,262143 \
  bash ../2026-12-02-fifty-fourth/run1.sh call73b-softmax $C V76 V78
