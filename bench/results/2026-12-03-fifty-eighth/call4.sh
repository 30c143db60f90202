#!/bin/bash
# call4.sh CARRY: main (M) against E (the rule kept), the norms and softmax fp16/fp32 off the grid and
# on it, then the pipelines fp16 that end in a layernorm; two passes each (run1.sh).
cd "$(dirname "$0")"; C=$1
OPS=softmax,rmsnorm,layernorm DTYPES=fp16,fp32 MIS=300,1000,2047,3000,4097,8191,16383,24001,32767,100003,200003 AL=1000,4096,100000 PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call4-norms $C M E 2>&1 | tail -80
OPS=layernorm_fp8,residual,residual_tee DTYPES=fp16 MIS=300,1000,2047,3000,4097,8191,16383,24001,32767,100003,200003 AL=1000,4096,100000 PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call4-pipes $C M E 2>&1 | tail -50
