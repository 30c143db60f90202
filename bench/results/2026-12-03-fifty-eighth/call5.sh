#!/bin/bash
# call5.sh CARRY: main (Mb) against E (Eb), the ops built for bf16 alone: the norms and softmax off
# the grid and on it, two passes (run1.sh).
cd "$(dirname "$0")"; C=$1
OPS=softmax,rmsnorm,layernorm DTYPES=bf16 MIS=300,1000,2047,3000,4097,8191,16383,24001,32767,100003,200003 AL=1000,4096,100000 PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call5-bf16 $C Mb Eb 2>&1 | tail -45
