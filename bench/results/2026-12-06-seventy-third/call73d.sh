#!/bin/bash
# call73d.sh: on the device, V76 (main's kernels at cf3203f) against V81 (softmax's and log-softmax's
# 262144-column phased kernels padded) and V82 (padded and capped at two blocks an SM): softmax and
# log-softmax fp16 / bf16 one element off at the widths that row takes and neighbours, aligned
# controls, through ../2026-12-02-fifty-fourth/run1.sh. Carry .device-carry/s96.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/s96
OPS=softmax,log_softmax DTYPES=fp16,bf16 AL=1024,196608,262144 \
MIS=1000,190001,196617,200003,210001,220001,230001,240001,250001,262143 \
  bash ../2026-12-02-fifty-fourth/run1.sh call73d $C V76 V81 V82
