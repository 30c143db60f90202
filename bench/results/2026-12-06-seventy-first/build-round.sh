#!/bin/bash
# build-round.sh ROUND OUTDIR PART-PADS-ONCE...: row_shapes.cu round ROUND from this checkout for
# sm_90 SASS, the parts at once, each with ROW_SHAPES_PADS_VALUES and ROW_SHAPES_EXCHANGES_ONCE as
# given (10-1-1: log-softmax fp16 padded and exchanging once). Stripped binaries OUTDIR/rs-PART-pPoO,
# -Xptxas -v in OUTDIR/build-*.log. This session's rounds:
#   build-round.sh 52 .device-carry/s73 10-1-1 3-0-0   (log-softmax, rmsnorm)
#   build-round.sh 53 .device-carry/s76 10-1-1 0-1-1   (log-softmax, softmax)
#   build-round.sh 54 .device-carry/s78 3-0-0          (rmsnorm)
#   build-round.sh 55 .device-carry/s82 1-0-0          (layernorm)
T=$(cd "$(dirname "$0")/../../.." && pwd); round=$1; O=$2; shift 2; mkdir -p $O
for spec in "$@"; do
  IFS=- read part pads once <<< "$spec"
  name=rs-$part-p${pads}o$once
  (/usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
     -Xptxas -v -I$T/include -isystem /usr/local/cuda/include/cccl -DROW_SHAPES_ROUND=$round \
     -DROW_SHAPES_PART=$part -DROW_SHAPES_PADS_VALUES=$pads -DROW_SHAPES_EXCHANGES_ONCE=$once \
     $T/bench/experiments/row_shapes.cu $T/src/*.cpp -o $O/$name > $O/build-$part-p${pads}o$once.log 2>&1
   echo "built $name rc=$? $(date +%T)"; strip $O/$name) &
done
wait
ls -la $O
