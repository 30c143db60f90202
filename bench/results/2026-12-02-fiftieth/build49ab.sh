#!/bin/bash
# build49ab.sh TREE OUT: row_shapes.cu round 49 (this folder's copy of the experiment) from TREE's
# headers into OUT: timed builds r1-a0 r3-a0 r1-a2 r3-a2 (ROW_SHAPES_DIRECT_ONLY) and cubins of
# parts 1 and 3 (affine 0) for cuobjdump on the device; two builds at a time.
T=$1; O=$2; mkdir -p $O; X=$(cd "$(dirname "$0")"/../../experiments && pwd)/row_shapes.cu
one() { # NAME PART AFFINE [EXTRA...]
  local name=$1 part=$2 affine=$3; shift 3
  /usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
    -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=49 -DROW_SHAPES_PART=$part \
    -DROW_SHAPES_AFFINE=$affine -DROW_SHAPES_DIRECT_ONLY=1 "$@" > $O/build-$name.log 2>&1
  echo "$name rc=$? $(date +%T)"
}
one r1-a0 1 0 $X $T/src/*.cpp -o $O/r1-a0 & one r3-a0 3 0 $X $T/src/*.cpp -o $O/r3-a0 & wait
one r1-a2 1 2 $X $T/src/*.cpp -o $O/r1-a2 & one r3-a2 3 2 $X $T/src/*.cpp -o $O/r3-a2 & wait
one c1 1 0 -cubin $X -o $O/c1.cubin & one c3 3 0 -cubin $X -o $O/c3.cubin & wait
