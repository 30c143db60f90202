#!/bin/bash
# build-r51.sh [TREE] [OUTDIR]: row_shapes.cu round 51 from TREE for sm_90 SASS, two builds at a
# time: softmax fp16 (part 0) and log-softmax fp16 (part 10) padded and exchanging once (p1o1),
# rmsnorm fp16 (part 3), layernorm fp16 (part 1) and fp32 (part 4) as their tables build them (p0o0).
# Binaries OUTDIR/rs-PART-VARIANT, -Xptxas -v in OUTDIR/build-*.log.
T=${1:-/work/main}; O=${2:-/work/main/.device-carry/s67}; mkdir -p $O
build() { # part pads once
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -Xptxas -v -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=51 \
    -DROW_SHAPES_PART=$1 -DROW_SHAPES_PADS_VALUES=$2 -DROW_SHAPES_EXCHANGES_ONCE=$3 \
    $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/rs-$1-p$2o$3 > $O/build-$1-p$2o$3.log 2>&1
  echo "built rs-$1-p$2o$3 rc=$? $(date +%T)"
}
build 0 1 1 & build 10 1 1 & wait
build 3 0 0 & build 1 0 0 & wait
build 4 0 0
ls -la $O
