#!/bin/bash
# build-tests.sh: on the development machine, the GPU suites callT.sh runs, built from this tree
# (Release, sm_90, as the ci preset) in build/s63t (or $BUILD, a build tree configured so) and
# copied, stripped, into .device-carry/s63t (32 MiB).
set -euo pipefail
R=$(cd "$(dirname "$0")/../../.." && pwd); B=$R/${BUILD:-build/s63t}; C=$R/.device-carry/s63t
tests=${TESTS:-"gpu_precision_edges gpu_phased_rows gpu_bad_input gpu_bad_input_backward gpu_fp8_rounding"}
[ -f $B/build.ninja ] || cmake -S $R -B $B -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DROWFUSE_BUILD_TESTS=ON -DROWFUSE_BUILD_BENCH=OFF \
  -DROWFUSE_BUILD_EXAMPLES=OFF > /dev/null
ninja -C $B -j2 $tests
rm -rf $C && mkdir -p $C
for t in $tests; do cp $B/tests/$t $C/ && strip $C/$t; done
(cd $R && echo "built from $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- include src tests || echo ' (with changes)')") > $C/built-from.txt
du -sh $C
