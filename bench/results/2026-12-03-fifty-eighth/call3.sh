#!/bin/bash
# call3.sh: M, C, C2 and D timed off the grid and on it (run1.sh), then ncu of M and C2 (ncuC.sh), D: C2 with the centred pass on phased rows.
cd "$(dirname "$0")"; C=$1
OPS=softmax,rmsnorm,layernorm DTYPES=fp16,fp32 MIS=300,1000,2047,3000,4097,8191,16383,24001,32767,100003,200003 AL=1000,4096,100000 PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call3 $C M C C2 D 2>&1 | tail -85
bash ncuC.sh call3-ncu $C M C2 D 2>&1 | tail -80
