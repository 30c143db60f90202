#!/bin/bash
# run8.sh: on the device, main (WL: main with round 40's and layernorm's rows) against round 43's
# rows (WN), log-softmax, rmsnorm and layernorm 16-bit, ../2026-12-01-forty-fifth/ab2.sh as call8/.
cd "$(dirname "$0")/../2026-12-01-forty-fifth"
CARRY=s47d OPS=log_softmax,rmsnorm,layernorm DTYPES=fp16,bf16 \
  EXTRA=96,200,264,384,600,1000,1500,2056,2560,3000,4104,5120,6144,8200,10240,12288,14336 \
  ./ab2.sh WL WN call8
