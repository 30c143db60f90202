#!/bin/bash
# callB.sh W: on the device, with .peer-wheels/W carried (3a, then 3b in the next call): the wheel
# folder into /tmp/peer-wheels (callW.sh), then rowfuse-bench built in build/release as
# bench/full-run.sh builds it (release preset, fp32 pipelines on), on the device's cores, for
# callF.sh's PREBUILT=1 run on the same warm machine, and beside it torch.compile's warm-up as
# full-run.sh starts it (the same cache folders and settings, in /tmp), so that callF.sh's own
# warm-up finds the cases compiled. A build or warm-up cut short by the time limit goes on where it
# stopped in the next call (ninja; build/ is ignored and /tmp kept on the warm machine).
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
bash bench/results/2026-12-05-sixty-third/callW.sh $1
command -v nvcc > /dev/null || export PATH=/usr/local/cuda/bin:$PATH
start=$SECONDS
export TORCHINDUCTOR_CACHE_DIR=/tmp/rowfuse-inductor-cache TRITON_CACHE_DIR=/tmp/rowfuse-triton-cache
export TORCHINDUCTOR_COMPILE_THREADS=1 TORCHINDUCTOR_FX_GRAPH_CACHE=1 TORCHINDUCTOR_AUTOGRAD_CACHE=1
for i in 0 1 2 3 4 5 6 7; do
  timeout ${BUILD_S:-500} python3 bench/peers.py --cols 32:262144 --dtype fp32,fp16,bf16 --compile-dtype fp16 \
    --impl compile --warm-only --shard $i/8 --time-budget ${BUILD_S:-500} > /tmp/callB-warm-$i.log 2>&1 &
done
{ [ -f build/release/build.ninja ] || cmake --preset release -DROWFUSE_BENCH_FP32_PIPELINES=ON; } > /tmp/callB-configure.log 2>&1 ||
  { tail -20 /tmp/callB-configure.log; exit 1; }
timeout ${BUILD_S:-500} cmake --build --preset release --target rowfuse-bench -j $(nproc) > /tmp/callB-build.log 2>&1
rc=$?
tail -3 /tmp/callB-build.log
echo "build exit $rc after $((SECONDS - start)) s ($(nproc) cores)"
wait
echo "warm-up: $(cat /tmp/callB-warm-*.log | grep -c '^peers.py: warmed') cases compiled after $((SECONDS - start)) s"
