#!/bin/bash
# call73f.sh: on the device, V76 (main's layernorm kernels) against V90 (layernorm's 24576- and
# 28672-column rows for devices of wide memory with phased kernels): layernorm fp16 / bf16 one
# element off at 20488-32775 and neighbours, aligned controls, through
# ../2026-12-02-fifty-fourth/run1.sh. Carry .device-carry/s99.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/s99
OPS=layernorm DTYPES=fp16,bf16 AL=1024,24576,28672 \
MIS=18001,20489,22001,24001,24583,25001,27001,28679,30001,33001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call73f $C V76 V90
