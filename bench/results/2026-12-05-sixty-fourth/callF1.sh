#!/bin/bash
# callF1.sh: on the device, with .device-carry/f1 carried (pack-full.sh): the prebuilt
# rowfuse-bench into build/release/bench (where full-run.sh's PREBUILT=1 looks), the first part
# of the peers' site into /tmp/peer-parts, and torch.compile's warm-up as full-run.sh runs it (the
# same cache folders and settings, 8 shards, WARM_S seconds), so that callF2.sh's run compiles
# from the cache.
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
mkdir -p build/release /tmp/peer-parts && tar xJf .device-carry/f1/bench.tar.xz -C build/release
cp .device-carry/f1/site.part0 /tmp/peer-parts/
cat build/release/bench/built-from.txt; build/release/bench/rowfuse-bench --help > /dev/null && echo bench runs
export TORCHINDUCTOR_CACHE_DIR=/tmp/rowfuse-inductor-cache TRITON_CACHE_DIR=/tmp/rowfuse-triton-cache
export TORCHINDUCTOR_COMPILE_THREADS=1 TORCHINDUCTOR_FX_GRAPH_CACHE=1 TORCHINDUCTOR_AUTOGRAD_CACHE=1
start=$SECONDS
for i in 0 1 2 3 4 5 6 7; do
  timeout ${WARM_S:-300} python3 bench/peers.py --cols 32:262144 --dtype fp32,fp16,bf16 --compile-dtype fp16 \
    --impl compile --warm-only --shard $i/8 --time-budget ${WARM_S:-300} > /tmp/callF1-warm-$i.log 2>&1 &
done
wait
echo "warm-up: $(cat /tmp/callF1-warm-*.log | grep -c '^peers.py: warmed') cases compiled after $((SECONDS - start)) s"
