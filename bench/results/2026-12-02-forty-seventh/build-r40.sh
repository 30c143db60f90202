#!/bin/bash
# build-r40.sh TREE OUTDIR: row_shapes.cu round 40 from TREE, two builds at a time: parts 0
# (softmax fp16), 10 (log-softmax fp16), 3 (rmsnorm fp16), 2 (softmax fp32), 15 (log-softmax fp32),
# 5 (rmsnorm fp32); the softmax family's parts also exchanging once (suffix o). fp32: direct only.
T=${1:-/work/main}; O=${2:-/work/main/.device-carry/r40}; mkdir -p $O
build() { # name part extra-flags...
  local name=$1 part=$2; shift 2
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=40 -DROW_SHAPES_PART=$part \
    "$@" $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/r$name > $O/build-$name.log 2>&1
  echo "$name rc=$? $(date +%T)"
}
once=-DROW_SHAPES_EXCHANGES_ONCE=1; direct=-DROW_SHAPES_DIRECT_ONLY=1
(build 2 2 $direct; build 15 15 $direct; build 5 5 $direct; build 0 0; build 3 3) &
(build 2o 2 $direct $once; build 15o 15 $direct $once; build 10 10; build 0o 0 $once; build 10o 10 $once) &
wait; ls -la $O
