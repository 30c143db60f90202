#!/bin/bash
# call72c.sh: on the device, (1) the fp16 pipelines one element off and three aligned controls, M4
# against V69 (rfb-M4-p, rfb-V69-p from prepare-pipelines.sh); (2) rmsnorm fp16 / bf16 one element
# off, V69 against V71 (rmsnorm's gamma from copies at each phase on cluster rows; rfb-V69, rfb-V71).
# Carry .device-carry/s85.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=residual,residual_tee,layernorm_fp8,attention DTYPES=fp16 AL=1024,53248,150000 \
MIS=300,1500,4601,9201,18001,22001,36001,53001,75001,100003,150001,190001,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call72c-pipes $R/.device-carry/s85 M4-p V69-p
OPS=rmsnorm DTYPES=fp16,bf16 AL=1024,53248,150000 \
MIS=300,1000,4601,9201,18001,22001,30001,36001,45001,53001,60001,75001,90001,100003,106001,120001,140001,150001,175001,190001,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call72c-rms $R/.device-carry/s85 V69 V71
