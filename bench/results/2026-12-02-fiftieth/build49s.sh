#!/bin/bash
# build49s.sh TREE OUT: row_shapes.cu round 49, parts 10 (log-softmax fp16) and 0 (softmax fp16),
# from TREE's headers into OUT (ROW_SHAPES_DIRECT_ONLY): timed builds r10, r0 and cubins c10, c0.
T=$1; O=$2; mkdir -p $O; X=$(cd "$(dirname "$0")"/../../experiments && pwd)/row_shapes.cu
one() { local name=$1 part=$2; shift 2
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=49 -DROW_SHAPES_PART=$part \
    -DROW_SHAPES_DIRECT_ONLY=1 "$@" > $O/build-$name.log 2>&1; echo "$name rc=$? $(date +%T)"; }
one r10 10 $X $T/src/*.cpp -o $O/r10 & one r0 0 $X $T/src/*.cpp -o $O/r0 & wait
one c10 10 -cubin $X -o $O/c10.cubin & one c0 0 -cubin $X -o $O/c0.cubin & wait
