#!/bin/bash
# callF85b.sh NAME: on the device, after callF85a.sh on the same warm machine, carrying
# .device-carry/f85b and .peer-wheels/b: the prebuilt rowfuse-bench joined (sha256 checked) into
# build/release/bench, where full-run.sh's PREBUILT=1 looks; the peers' wheels completed and
# installed (their install.sh), QuACK and Liger imported; then bench/full-run.sh over the
# prebuilt bench into $OUT/NAME.
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
date +%T
[ -f /tmp/bench.part0 ] ||
  { echo "callF85b.sh: no first half of the bench here (was callF85a.sh run on this machine?)"; exit 1; }
cat /tmp/bench.part0 .device-carry/f85b/bench.part1 > /tmp/bench.tar.xz
[ "$(sha256sum /tmp/bench.tar.xz | cut -d' ' -f1)" = "$(cat .device-carry/f85b/bench.sha256)" ] ||
  { echo "callF85b.sh: the joined bench differs from pack85.sh's"; exit 1; }
mkdir -p build/release && tar xJf /tmp/bench.tar.xz -C build/release
cat build/release/bench/built-from.txt; build/release/bench/rowfuse-bench --help > /dev/null && echo bench runs
cp .peer-wheels/b/* /tmp/peer-wheels/
export PYTHONPATH=$(bash /tmp/peer-wheels/install.sh)
python3 -c 'import quack, liger_kernel; print("quack and liger import")'
export TORCHINDUCTOR_CACHE_DIR=/tmp/rowfuse-inductor-cache TRITON_CACHE_DIR=/tmp/rowfuse-triton-cache
PREBUILT=1 OUT=$OUT/$1 BUDGET_S=${BUDGET_S:-520} bash bench/full-run.sh
date +%T
