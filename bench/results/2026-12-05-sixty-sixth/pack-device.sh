#!/bin/bash
# pack-device.sh: on the development machine (no GPU), what the next lease carries, built with the
# `device` preset (SASS and full device optimisation: not the PTX-only, --Ofast-compile=max builds
# that configure makes where it finds no GPU) for sm_90 SASS alone (90-real: the carried binaries
# need no PTX, which would double their size), in build/device-real:
#   .device-carry/s66/suites.tar.xz  every GPU suite and example, stripped (callC.sh); A2's two builds
#                                   of .device-carry/s63 as a2.tar.xz unless NO_A2=1
#   .device-carry/f1/bench.tar.xz    rowfuse-bench, stripped, as bench/ (callF1.sh of the
#                                   sixty-fourth session), and the first part of the peers' site
#   .device-carry/f2/site.part1      the rest of the site and its sha256 (callF2.sh)
# The site is the sixty-fourth session's (pack-full.sh there: QuACK's and Liger's wheels installed
# with pip --target for CPython 3.12), joined and cut again at SPLIT_MB so that each call stays
# under 64 MiB beside the tracked tree.
set -euo pipefail
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
C=.device-carry; B=build/device-real; tmp=$(mktemp -d); trap 'rm -rf $tmp' EXIT
suites=$(ls tests/gpu/*.cu | xargs -n1 basename | sed 's/\.cu$//; s/^/gpu_/')
examples=$(ls examples/*.cu | xargs -n1 basename | sed 's/\.cu$//; s/^/example_/')
[ -f $B/build.ninja ] || cmake --preset device -B $B -DCMAKE_CUDA_ARCHITECTURES=90-real > /dev/null
ninja -C $B -j$(nproc) rowfuse-bench $suites $examples
built="$(git log -1 --format='%h %s')$(git diff --quiet HEAD -- include src tests bench/*.cpp bench/*.cu bench/*.cuh bench/*.hpp || echo ' (with changes)')"

mkdir -p $tmp/s66s $tmp/bench $C/s66 $C/f1 $C/f2
for s in $suites; do strip -o $tmp/s66s/$s $B/tests/$s; done
for e in $examples; do strip -o $tmp/s66s/$e $B/examples/$e; done
echo "$built" > $tmp/s66s/built-from.txt
tar cf - -C $tmp s66s | xz -9 -T$(nproc) > $C/s66/suites.tar.xz
if [ -z "${NO_A2:-}" ]; then cp $C/s64/a2.tar.xz $C/s66/; else rm -f $C/s66/a2.tar.xz; fi

strip -o $tmp/bench/rowfuse-bench $B/bench/rowfuse-bench
echo "$built" > $tmp/bench/built-from.txt
tar cf - -C $tmp bench | xz -9e -T$(nproc) > $C/f1/bench.tar.xz

cat $C/f1/site.part0 $C/f2/site.part1 > $tmp/site.tar.xz
[ "$(sha256sum $tmp/site.tar.xz | cut -d' ' -f1)" = "$(cat $C/f2/site.sha256)" ]
head -c $((${SPLIT_MB:-20} * 1000000)) $tmp/site.tar.xz > $C/f1/site.part0
tail -c +$((${SPLIT_MB:-20} * 1000000 + 1)) $tmp/site.tar.xz > $C/f2/site.part1
du -b $C/s66 $C/f1 $C/f2; git ls-files -z | xargs -0 du -cb | tail -1
