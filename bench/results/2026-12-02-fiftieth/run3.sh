#!/bin/bash
# run3.sh PART: on the device, main's slim rowfuse-bench against the 32-bit column arithmetic (A),
# ../2026-12-02-forty-eighth/ab.sh (its folder on the device, moved here after), three passes:
# PART 1 the four ops fp16 / bf16 (main: M16, the forty-ninth session's N2 build, main's tables),
# (VAR: the change, A unless set) PART 2 fp32 (M32 / A32), PART 3 the pipelines fp16 (MP / AP); the builds from .device-carry/s50.
cd "$(dirname "$0")/../2026-12-02-forty-eighth"
C=${CARRYPATH:-../../../.device-carry/${CARRY:-s50}}
W=32:262144,96,120,136,160,200,224,400,456,776,1000,3080,6152,7176,8200,16392
MIS=33,100,201,449,1000,1017,3081,6153,10249
ops=softmax,log_softmax,rmsnorm,layernorm
case $1 in
  1) ./ab.sh s50-call$2 $C ${BASE:-M16} ${VAR:-A} $ops fp16,bf16 ${WIDTHS:-$W} $MIS ;;
  2) ./ab.sh s50-call$2 $C M32 ${VAR:-A}32 $ops fp32 $W $MIS ;;
  3) ./ab.sh s50-call$2 $C MP${TYPES:+B} ${VAR:-A}P${TYPES:+B} attention,residual,residual_tee,layernorm_fp8 ${TYPES:-fp16} \
       32:262144,200,224,456,776,1000,2568,3080,6152,7176,8200,16392 33,201,1000,3081,6153,10249 ;;
esac
