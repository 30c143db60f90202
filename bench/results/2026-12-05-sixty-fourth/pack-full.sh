#!/bin/bash
# pack-full.sh: on the development machine, the full run with peers in two device calls instead of
# three with a build on the device: rowfuse-bench built here (release preset, fp32 pipelines, as
# full-run.sh builds it; stripped, xz) and QuACK's and Liger's wheels installed here into a site
# folder (pip --target for CPython 3.12, as shared/peers/install.sh does there; cuda-bindings'
# Cython sources, 89 MB that nothing imports, left out), xz-packed and cut in two:
# .device-carry/f1 (bench + first part, SPLIT_MB of the site) and .device-carry/f2 (the rest), each
# under the call's 64 MiB beside the tracked tree. Wheels from .peer-wheels/3a-3c (split-wheels.sh).
set -euo pipefail
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
W=.peer-wheels; C=.device-carry; tmp=$(mktemp -d)
if [ ! -x build/release/bench/rowfuse-bench ]; then
  cmake --preset release -DROWFUSE_BENCH_FP32_PIPELINES=ON > /dev/null
  cmake --build --preset release --target rowfuse-bench -j $(nproc)
fi
mkdir -p $C/f1 $C/f2 $tmp/bench
strip -o $tmp/bench/rowfuse-bench build/release/bench/rowfuse-bench
git log -1 --format='%h %s' > $tmp/bench/built-from.txt
tar cf - -C $tmp bench | xz -9e -T2 > $C/f1/bench.tar.xz
cp $W/3a/*.whl $W/3b/*.whl $tmp/
cat $W/3a/part.00 $W/3b/part.01 $W/3c/part.02 > $tmp/$(cat $W/3c/BIG_WHEEL_NAME)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target $tmp/peer-site \
  --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64 \
  --platform manylinux_2_24_x86_64 --only-binary=:all: $tmp/*.whl
find $tmp/peer-site/cuda \( -name '*.cpp' -o -name '*.pyx' -o -name '*.pxd' \) -delete
tar cf - -C $tmp peer-site | xz -9e -T2 > $tmp/site.tar.xz
sha256sum $tmp/site.tar.xz | cut -d' ' -f1 > $C/f2/site.sha256
head -c $((${SPLIT_MB:-32} * 1000000)) $tmp/site.tar.xz > $C/f1/site.part0
tail -c +$((${SPLIT_MB:-32} * 1000000 + 1)) $tmp/site.tar.xz > $C/f2/site.part1
rm -rf $tmp
du -b $C/f1 $C/f2; git ls-files -z | xargs -0 du -cb | tail -1
