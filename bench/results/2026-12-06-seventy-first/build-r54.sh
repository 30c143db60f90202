#!/bin/bash
# build-r54.sh [TREE] [OUTDIR]: row_shapes.cu round 54 from TREE for sm_90 SASS, one part:
# rmsnorm fp16 (part 3) as its table builds it (p0o0).
# Binaries OUTDIR/rs-PART-VARIANT, -Xptxas -v in OUTDIR/build-*.log.
T=${1:-/work/main}; O=${2:-/work/main/.device-carry/s78}; mkdir -p $O
build() { # part pads once
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -Xptxas -v -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=54 \
    -DROW_SHAPES_PART=$1 -DROW_SHAPES_PADS_VALUES=$2 -DROW_SHAPES_EXCHANGES_ONCE=$3 \
    $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/rs-$1-p$2o$3 > $O/build-$1-p$2o$3.log 2>&1
  echo "built rs-$1-p$2o$3 rc=$? $(date +%T)"
}
build 3 0 0
strip $O/rs-3-p0o0
ls -la $O
