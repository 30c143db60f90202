#!/bin/bash
# callF85a.sh: on the device, carrying .device-carry/f85a (pack85.sh) and .peer-wheels/a
# (../shared/peers/fetch-wheels.sh): the first half of the prebuilt rowfuse-bench and of the
# peers' wheels into /tmp; then torch.compile's warm-up as full-run.sh runs it (its cache folders
# and settings, 8 shards, WARM_S seconds each), so that callF85b.sh's timed run compiles from the
# cache.
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date +%T
mkdir -p /tmp/peer-wheels && cp .peer-wheels/a/* /tmp/peer-wheels/
cp .device-carry/f85a/bench.part0 /tmp/
export TORCHINDUCTOR_CACHE_DIR=/tmp/rowfuse-inductor-cache TRITON_CACHE_DIR=/tmp/rowfuse-triton-cache
export TORCHINDUCTOR_COMPILE_THREADS=1 TORCHINDUCTOR_FX_GRAPH_CACHE=1 TORCHINDUCTOR_AUTOGRAD_CACHE=1
start=$SECONDS
for i in 0 1 2 3 4 5 6 7; do
  timeout ${WARM_S:-300} python3 bench/peers.py --cols 32:262144 --dtype fp32,fp16,bf16 --compile-dtype fp16 \
    --impl compile --warm-only --shard $i/8 --time-budget ${WARM_S:-300} > /tmp/callF85a-warm-$i.log 2>&1 &
done
wait
echo "warm-up: $(cat /tmp/callF85a-warm-*.log | grep -c '^peers.py: warmed') cases compiled after $((SECONDS - start)) s"
date +%T
