#!/bin/bash
# pack-device.sh: on the development machine (no GPU), what the next lease carries, built with the
# `device` preset (SASS and full device optimisation: not the PTX-only, --Ofast-compile=max builds
# that configure makes where it finds no GPU) for sm_90 SASS alone (90-real: the carried binaries
# need no PTX) and without -lineinfo (ROWFUSE_LINEINFO=OFF: its PTX text is three quarters of
# their device code; the SASS is the same), in build/device-slim; a suite or example not built
# there is taken from build/device-real (the same with -lineinfo), as built-from.txt says. Four
# folders, each under a call's 64 MiB beside the tracked tree (12.4 MB):
#   .device-carry/f1    bench.tar.xz (rowfuse-bench, stripped, as bench/: the sixty-fourth
#                       session's callF1.sh) and site.part0, the first SPLIT_MB (24) of the peers'
#                       site (the sixty-fourth session's pack-full.sh: QuACK and Liger installed with
#                       pip --target for CPython 3.12, xz)
#   .device-carry/f2    site.part1, the rest, and site.sha256 (callF2.sh there)
#   .device-carry/s66a  suites.tar: GPU suites and examples, stripped, each xz-packed, the largest
#                       first up to PART_MB (52)
#   .device-carry/s66b  suites.tar: the rest; and a2.tar.xz, A2's two builds (.device-carry/s64),
#                       unless NO_A2=1, or they do not fit: then alone in .device-carry/s66c
# callC.sh runs a suites folder (and A2 where it came along). BUILD=1 builds what is missing in
# build/device-slim first (about 75 minutes on two cores for everything).
set -euo pipefail
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
C=.device-carry; S=build/device-slim; L=build/device-real; tmp=$(mktemp -d); trap 'rm -rf $tmp' EXIT
suites=$(ls tests/gpu/*.cu | xargs -n1 basename | sed 's/\.cu$//; s/^/gpu_/')
examples=$(ls examples/*.cu | xargs -n1 basename | sed 's/\.cu$//; s/^/example_/')
if [ -n "${BUILD:-}" ]; then
  [ -f $S/build.ninja ] ||
    cmake --preset device -B $S -DCMAKE_CUDA_ARCHITECTURES=90-real -DROWFUSE_LINEINFO=OFF > /dev/null
  ninja -C $S -j$(nproc) rowfuse-bench $suites $examples
fi
built="$(git log -1 --format='%h %s')$(git diff --quiet HEAD -- include src tests examples bench/*.cpp \
  bench/*.cu bench/*.cuh bench/*.hpp bench/CMakeLists.txt || echo ' (with changes)')"
pick() { # folder, name: the slim build's binary where there is one, else the -lineinfo one
  if [ -x $S/$1/$2 ]; then echo $S/$1/$2; else echo $L/$1/$2; echo "$2" >> $tmp/with-lineinfo; fi
}

# The suites and examples, each stripped and xz-packed, shared out between two folders.
mkdir -p $tmp/packed $tmp/a/s66s $tmp/b/s66s
touch $tmp/with-lineinfo
for s in $suites; do strip -o $tmp/packed/$s $(pick tests $s); done
for e in $examples; do strip -o $tmp/packed/$e $(pick examples $e); done
xz -9 -T$(nproc) $tmp/packed/*
total=0
for f in $(ls -S $tmp/packed); do
  size=$(stat -c %s $tmp/packed/$f)
  if ((total + size <= ${PART_MB:-52} * 1000000)); then
    total=$((total + size)); mv $tmp/packed/$f $tmp/a/s66s/
  else
    mv $tmp/packed/$f $tmp/b/s66s/
  fi
done
rm -rf $C/s66a $C/s66b && mkdir -p $C/s66a $C/s66b
for p in a b; do
  { echo "$built"; [ ! -s $tmp/with-lineinfo ] || echo "with -lineinfo:" $(cat $tmp/with-lineinfo); } \
    > $tmp/$p/s66s/built-from.txt
  tar cf $C/s66$p/suites.tar -C $tmp/$p s66s
done
# A2's builds beside the second part where they fit, else alone in s66c.
rm -rf $C/s66c
if [ -z "${NO_A2:-}" ]; then
  if (($(stat -c %s $C/s66b/suites.tar) + $(stat -c %s $C/s64/a2.tar.xz) <= ${PART_MB:-52} * 1000000)); then
    cp $C/s64/a2.tar.xz $C/s66b/
  else
    mkdir -p $C/s66c && cp $C/s64/a2.tar.xz $C/s66c/ && tar cf $C/s66c/suites.tar -T /dev/null
  fi
fi

# rowfuse-bench, as the sixty-fourth session's callF1.sh unpacks it.
mkdir -p $tmp/bench $C/f1 $C/f2
strip -o $tmp/bench/rowfuse-bench $(pick bench rowfuse-bench)
echo "$built" > $tmp/bench/built-from.txt
tar cf - -C $tmp bench | xz -9e -T$(nproc) > $C/f1/bench.tar.xz

# The peers' site, joined (checked against its sha256) and cut again at SPLIT_MB.
cat $C/f1/site.part0 $C/f2/site.part1 > $tmp/site.tar.xz
[ "$(sha256sum $tmp/site.tar.xz | cut -d' ' -f1)" = "$(cat $C/f2/site.sha256)" ]
head -c $((${SPLIT_MB:-24} * 1000000)) $tmp/site.tar.xz > $C/f1/site.part0
tail -c +$((${SPLIT_MB:-24} * 1000000 + 1)) $tmp/site.tar.xz > $C/f2/site.part1
du -b $C/f1 $C/f2 $C/s66a $C/s66b $(ls -d $C/s66c 2>/dev/null)
git ls-files -z | xargs -0 du -cb | tail -1
