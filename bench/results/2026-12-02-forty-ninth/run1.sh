#!/bin/bash
# run1.sh PART: on the device, main's slim rowfuse-bench against the change (G: a warp takes one
# copy of the ops' loops), the four ops, ../2026-12-02-forty-eighth/ab.sh: PART 1 fp16 / bf16
# (main: M16) as call1/, PART 2 fp32 (main: M) as call2/.
cd "$(dirname "$0")/../2026-12-02-forty-eighth"
C=../../../.device-carry/s49
W=32:262144,136,160,168,192,200,224,400,448,456,648,768,776,800,896,1000,1016,2568,3080,6152,6656,7176,8200,16392
MIS=33,100,201,449,1000,1017,3081,6153,10249
ops=softmax,log_softmax,rmsnorm,layernorm
case $1 in
  1) ./ab.sh call1 $C M16 G $ops fp16,bf16 $W $MIS ;;
  2) ./ab.sh call2 $C M G $ops fp32 $W $MIS ;;
esac
