#!/bin/bash
# build49.sh TREE OUT: row_shapes.cu round 49 from TREE into OUT, loaded straight to registers
# (ROW_SHAPES_DIRECT_ONLY): rPART-aAFFINE timed, pPART-aAFFINE one launch a case for ncu
# (ROW_SHAPES_PROFILE); parts 1 (layernorm fp16) and 3 (rmsnorm fp16), two builds at a time.
T=$1; O=$2; mkdir -p $O
one() { # NAME PART AFFINE [EXTRA]
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=49 -DROW_SHAPES_PART=$2 \
    -DROW_SHAPES_AFFINE=$3 -DROW_SHAPES_DIRECT_ONLY=1 $4 $T/bench/experiments/row_shapes.cu \
    $T/src/*.cpp -o $O/$1 > $O/build-$1.log 2>&1
  echo "$1 rc=$? $(date +%T)"
}
one r1-a0 1 0 & one r3-a0 3 0 & wait
one r1-a1 1 1 & one r1-a2 1 2 & wait
one r3-a2 3 2 & one p1-a0 1 0 -DROW_SHAPES_PROFILE=1 & wait
one p3-a0 3 0 -DROW_SHAPES_PROFILE=1
