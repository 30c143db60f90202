#!/bin/bash
# build-r41.sh TREE OUTDIR: row_shapes.cu round 41 from TREE: parts 1 (layernorm fp16), 16
# (layernorm bf16) and 4 (layernorm fp32, direct only), one at a time.
T=${1:-/work/main}; O=${2:-/work/main/.device-carry/r41}; mkdir -p $O
build() { # name part extra-flags...
  local name=$1 part=$2; shift 2
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=41 -DROW_SHAPES_PART=$part \
    "$@" $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/r$name > $O/build-$name.log 2>&1
  echo "$name rc=$? $(date +%T)"
}
build 4 4 -DROW_SHAPES_DIRECT_ONLY=1; build 1 1; build 16 16
ls -la $O
