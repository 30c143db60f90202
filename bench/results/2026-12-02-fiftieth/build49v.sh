#!/bin/bash
# build49v.sh TREE OUT: row_shapes.cu round 49 from TREE's headers into OUT, loaded straight to
# registers (ROW_SHAPES_DIRECT_ONLY), timed builds of parts 0 (softmax), 10 (log-softmax), 1
# (layernorm) and 3 (rmsnorm) fp16 with their operands: rPART-a0; two builds at a time.
T=$1; O=$2; mkdir -p $O; X=$(cd "$(dirname "$0")"/../../experiments && pwd)/row_shapes.cu
one() { /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=49 -DROW_SHAPES_PART=$1 \
    -DROW_SHAPES_DIRECT_ONLY=1 $X $T/src/*.cpp -o $O/r$1-a0 > $O/build-$1.log 2>&1
  echo "r$1 rc=$? $(date +%T)"; }
one 0 & one 10 & wait; one 1 & one 3 & wait
