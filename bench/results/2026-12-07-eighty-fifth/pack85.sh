#!/bin/bash
# pack85.sh: on the development machine, after `ninja -C build/device-slim rowfuse-bench` (the
# `device` preset, 90-real, no -lineinfo: prepare83.sh's configuration): rowfuse-bench stripped
# and xz-packed as bench/ with the commit it was built from, cut in two halves,
# .device-carry/f85a/bench.part0 and .device-carry/f85b/bench.part1 with its sha256, so that each
# fits a call's 64 MiB beside one half of the peers' wheels (.peer-wheels/a, b: 55.2 and 54.3 MiB);
# callF85b.sh joins them where full-run.sh's PREBUILT=1 looks.
set -euo pipefail
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
tmp=$(mktemp -d); trap 'rm -rf $tmp' EXIT
mkdir -p .device-carry/f85a .device-carry/f85b $tmp/bench
strip -o $tmp/bench/rowfuse-bench build/device-slim/bench/rowfuse-bench
echo "$(git log -1 --format='%h %s')$(git diff --quiet HEAD -- include src bench/*.cpp bench/*.cu \
  bench/*.cuh bench/*.hpp bench/CMakeLists.txt || echo ' (with changes)')" > $tmp/bench/built-from.txt
tar cf - -C $tmp bench | xz -9e -T2 > $tmp/bench.tar.xz
half=$(($(stat -c %s $tmp/bench.tar.xz) / 2))
head -c $half $tmp/bench.tar.xz > .device-carry/f85a/bench.part0
tail -c +$((half + 1)) $tmp/bench.tar.xz > .device-carry/f85b/bench.part1
sha256sum $tmp/bench.tar.xz | cut -d' ' -f1 > .device-carry/f85b/bench.sha256
ls -la .device-carry/f85a .device-carry/f85b
