#!/bin/bash
# build-r36.sh TREE OUTDIR [extra nvcc flags]: row_shapes.cu round 36 parts 0 (softmax fp16) and 3
# (rmsnorm fp16) from TREE, profile builds (ROW_SHAPES_PROFILE: one launch a case) and timed builds.
T=${1:-/work/main}; O=${2:-/work/main/.device-carry/r36}; shift 2; mkdir -p $O
for k in 0 3; do
  for mode in prof time; do
    flag=""; [ $mode = prof ] && flag=-DROW_SHAPES_PROFILE
    /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 -lineinfo --expt-relaxed-constexpr --extended-lambda \
      -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=${ROUND:-36} -DROW_SHAPES_PART=$k $flag "$@" \
      $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/$mode$k > $O/build-$mode$k.log 2>&1 &
  done
done
wait; ls -la $O
