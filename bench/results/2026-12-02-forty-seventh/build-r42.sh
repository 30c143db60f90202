#!/bin/bash
# build-r42.sh TREE OUTDIR: row_shapes.cu round 42 from TREE: part 4 (layernorm fp32).
T=${1:-/work/main}; O=${2:-/work/main/.device-carry/r42}; mkdir -p $O
/usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
  -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=42 -DROW_SHAPES_PART=4 \
  $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/r4 > $O/build-4.log 2>&1
echo "r4 rc=$? $(date +%T)"; ls -la $O
