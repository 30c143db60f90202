#!/bin/bash
# build-round.sh ROUND TREE OUTDIR BUILD...: row_shapes.cu round ROUND from TREE into OUTDIR/rNAME,
# one build at a time; each BUILD is NAME:PART[:FLAGS], FLAGS a comma list of `direct`
# (ROW_SHAPES_DIRECT_ONLY: no staged kernels) and `once` (ROW_SHAPES_EXCHANGES_ONCE: every cluster
# shape exchanges once a row). This session's rounds:
#   40: 2:2:direct 2o:2:direct,once 15:15:direct 15o:15:direct,once 5:5:direct 0:0 0o:0:once 10:10
#       10o:10:once 3:3   (softmax, log-softmax, rmsnorm; 16-bit and fp32)
#   41: 4:4:direct 1:1 16:16   (layernorm fp32, fp16, bf16)
#   42: 4:4   (layernorm fp32, gamma and beta placed three ways)
#   43: 1:1 10:10 3:3   (layernorm, log-softmax, rmsnorm fp16 at 32-16384 columns)
ROUND=$1; T=$2; O=$3; shift 3; mkdir -p $O
for build in "$@"; do
  IFS=: read -r name part flags <<< "$build"
  extra=()
  [[ ,$flags, == *,direct,* ]] && extra+=(-DROW_SHAPES_DIRECT_ONLY=1)
  [[ ,$flags, == *,once,* ]] && extra+=(-DROW_SHAPES_EXCHANGES_ONCE=1)
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=$ROUND \
    -DROW_SHAPES_PART=$part "${extra[@]}" $T/bench/experiments/row_shapes.cu $T/src/*.cpp \
    -o $O/r$name > $O/build-$name.log 2>&1
  echo "r$name rc=$? $(date +%T)"
done
ls -la $O
