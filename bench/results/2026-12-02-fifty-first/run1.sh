#!/bin/bash
# run1.sh PART N: on the device, main's slim rowfuse-bench (M) against the change (VAR, K unless
# set), ../2026-12-02-forty-eighth/ab.sh (its folder on the device, moved here after), three
# passes: PART 1 layernorm fp16 / bf16, PART 2 layernorm fp32, PART 3 the pipelines that end in
# layernorm (fp16, or TYPES), PART 4 the four ops fp16 / bf16 (OPS) at the powers of two; the
# builds from .device-carry/s51 (CARRYPATH: elsewhere).
cd "$(dirname "$0")/../2026-12-02-forty-eighth"
C=${CARRYPATH:-../../../.device-carry/${CARRY:-s51}}
W=32:262144,40,48,56,96,120,136,160,200,224,400,456,648,776,1000,2568,3080,6152,7176,16392
MIS=33,100,201,449,1000,1017,3081,6153,10249
case $1 in
  1) ./ab.sh s51-call$2 $C ${BASE:-M} ${VAR:-K} layernorm fp16,bf16 ${WIDTHS:-$W} $MIS ;;
  2) ./ab.sh s51-call$2 $C ${BASE:-M}32 ${VAR:-K}32 layernorm fp32 ${WIDTHS:-$W} $MIS ;;
  3) ./ab.sh s51-call$2 $C ${BASE:-M}P ${VAR:-K}P residual,residual_tee,layernorm_fp8 ${TYPES:-fp16} \
       32:262144,200,224,456,776,1000,2568,3080,6152,7176 33,201,1000,3081,6153,10249 ;;
  4) ./ab.sh s51-call$2 $C ${BASE:-M} ${VAR:-K} ${OPS:-softmax,log_softmax,rmsnorm,layernorm} fp16,bf16 \
       ${WIDTHS:-32:262144} 33,1000,10249 ;;
esac
