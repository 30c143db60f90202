#!/bin/bash
# run9.sh: on the device, main (WL) against round 43's rows with the widths that lost in call8
# returned to the rows main takes there (WN2), log-softmax, rmsnorm and layernorm 16-bit,
# ../2026-12-01-forty-fifth/ab2.sh as call9/.
cd "$(dirname "$0")/../2026-12-01-forty-fifth"
CARRY=s47d OPS=log_softmax,rmsnorm,layernorm DTYPES=fp16,bf16 \
  EXTRA=96,200,264,384,600,1000,1500,2056,2560,3000,4104,5120,6144,8200,10240,12288,14336 \
  ./ab2.sh WL WN2 call9
