#!/bin/bash
# call72e.sh: on the device, the fp16 pipelines one element off and aligned, M4 against V73 (main's
# change: V72 with the edge elements ahead on pure load chains alone; rfb-M4-p, rfb-V73-p from
# prepare-pipelines.sh). Carry .device-carry/s87.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=residual,residual_tee,layernorm_fp8,attention DTYPES=fp16 AL=1024,4096,8192,53248,150000 \
MIS=300,1500,4601,6001,8001,9201,18001,22001,36001,53001,75001,100003,150001,190001,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call72e $R/.device-carry/s87 M4-p V73-p
