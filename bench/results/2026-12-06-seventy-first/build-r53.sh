#!/bin/bash
# build-r53.sh [TREE] [OUTDIR]: row_shapes.cu round 53 from TREE for sm_90 SASS, the two parts at
# once: log-softmax fp16 (part 10) and softmax fp16 (part 0), padded and exchanging once (p1o1).
# Binaries OUTDIR/rs-PART-VARIANT, -Xptxas -v in OUTDIR/build-*.log.
T=${1:-/work/main}; O=${2:-/work/main/.device-carry/s76}; mkdir -p $O
build() { # part pads once
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -Xptxas -v -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=53 \
    -DROW_SHAPES_PART=$1 -DROW_SHAPES_PADS_VALUES=$2 -DROW_SHAPES_EXCHANGES_ONCE=$3 \
    $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/rs-$1-p$2o$3 > $O/build-$1-p$2o$3.log 2>&1
  echo "built rs-$1-p$2o$3 rc=$? $(date +%T)"
}
build 10 1 1 & build 0 1 1 & wait
strip $O/rs-10-p1o1 $O/rs-0-p1o1
ls -la $O
