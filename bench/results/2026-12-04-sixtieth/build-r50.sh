#!/bin/bash
# build-r50.sh TREE OUTDIR: row_shapes.cu round 50 from TREE, two builds at a time: softmax fp16
# (part 0) and log-softmax fp16 (part 10) exchanging once with and without the padding (p1o1,
# p0o1), softmax exchanging twice unpadded (p0o0, the 131072-column row's own kernel), rmsnorm
# fp16 (part 3). Binaries OUTDIR/rs-PART-VARIANT (moved to .device-carry/s60r for callR.sh), -Xptxas -v in OUTDIR/build-*.log.
T=${1:-/work/main}; O=${2:-/work/main/.device-carry/s60}; mkdir -p $O
build() { # part pads once
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 -lineinfo --expt-relaxed-constexpr --extended-lambda \
    -Xptxas -v -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=50 \
    -DROW_SHAPES_PART=$1 -DROW_SHAPES_PADS_VALUES=$2 -DROW_SHAPES_EXCHANGES_ONCE=$3 \
    $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/rs-$1-p$2o$3 > $O/build-$1-p$2o$3.log 2>&1
  echo "built rs-$1-p$2o$3 rc=$?"
}
build 0 1 1 & build 10 1 1 & wait
build 0 0 1 & build 3 0 0 & wait
build 10 0 1 & build 0 0 0 & wait
ls -la $O
