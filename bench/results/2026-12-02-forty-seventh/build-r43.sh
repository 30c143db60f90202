#!/bin/bash
# build-r43.sh TREE OUTDIR: row_shapes.cu round 43 from TREE: parts 1 (layernorm fp16), 10
# (log-softmax fp16) and 3 (rmsnorm fp16), one at a time.
T=${1:-/work/main}; O=${2:-/work/main/.device-carry/r43}; mkdir -p $O
for part in 1 10 3; do
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=43 -DROW_SHAPES_PART=$part \
    $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/r$part > $O/build-$part.log 2>&1
  echo "r$part rc=$? $(date +%T)"
done
ls -la $O
