#!/bin/bash
# prepare-lease.sh: on the development machine (no GPU), from a fresh checkout, everything the
# sixty-seventh session's first call (../2026-12-05-sixty-seventh/callV.sh) carries in
# .device-carry/s67:
#   1. build/device-slim: the `device` preset for sm_90 SASS alone, no -lineinfo, and of it only
#      what prepare-variants.sh links (rowfuse-bench's ops and unfused units for fp16 and bf16, its
#      host objects, the runtime library), not the whole bench, suites or examples;
#   2. row_shapes round 51 (build-r51.sh);
#   3. the variant trees /work/var/s67/V51..V53 (main's tracked tree and each diff) and their slim
#      rowfuse-bench builds beside main's (prepare-variants.sh);
#   4. rfb-Mp: main's fp16 ops and pipelines in one rowfuse-bench, for callP.sh's `pipelines`.
# Each step is skipped where its output is already there (outputs built from an older main are
# not detected: remove .device-carry/s67 and build/device-slim after a change to include/ or src/).
# Prints each step's seconds; 873 s from a fresh checkout on the sixty-eighth session's machine.
set -euo pipefail
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
H=$R/bench/results/2026-12-05-sixty-seventh; S=build/device-slim; C=.device-carry/s67
step() { echo "== $(date +%T) $*"; }
t0=$(date +%s)

step "1. build/device-slim (configure, then 8 objects and the runtime)"
[ -f $S/build.ninja ] ||
  cmake --preset device -B $S -DCMAKE_CUDA_ARCHITECTURES=90-real -DROWFUSE_LINEINFO=OFF > /dev/null
B=bench/CMakeFiles/rowfuse-bench.dir
ninja -C $S -j$(nproc) librowfuse_runtime.a $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o \
  $B/device.cu.o $B/generated/unfused_fp16.cu.o $B/generated/unfused_bf16.cu.o \
  $B/generated/ops_fp16.cu.o $B/generated/ops_bf16.cu.o
echo "   $(($(date +%s) - t0)) s so far"

step "2. row_shapes round 51"
if [ ! -x $C/rs-4-p0o0 ]; then bash $H/build-r51.sh $R $R/$C; fi
echo "   $(($(date +%s) - t0)) s so far"

step "3. variant trees and their rowfuse-bench builds"
for v in V51 V52 V53; do
  [ -x $C/rfb-$v ] && continue
  rm -rf /work/var/s67/$v && mkdir -p /work/var/s67/$v
  git archive HEAD | tar x -C /work/var/s67/$v
done
apply() { # variant diff
  [ -x $C/rfb-$1 ] || (cd /work/var/s67/$1 && patch -s -p0 include/rowfuse/dispatch/tuning.hpp < $H/$2)
}
apply V51 quack-shapes-V51.diff
apply V52 rmsnorm-shared-gamma-V52.diff
apply V53 h100-takes-wide-rows-V53.diff
todo=(); for v in V51 V52 V53; do [ -x $C/rfb-$v ] || todo+=($v); done
if ((${#todo[@]})) || [ ! -x $C/rfb-M ]; then bash $H/prepare-variants.sh "${todo[@]}"; fi

step "4. rfb-Mp (fp16 ops and pipelines)"
if [ ! -x $C/rfb-Mp ]; then
  ninja -C $S $B/generated/pipelines_fp16.cu.o
  O=$S/$B
  g++ -O3 -DNDEBUG $O/main.cpp.o $O/options.cpp.o $O/report.cpp.o $O/device.cu.o \
    $O/generated/unfused_fp16.cu.o $O/generated/unfused_bf16.cu.o $O/generated/ops_fp16.cu.o \
    $O/generated/pipelines_fp16.cu.o $S/librowfuse_runtime.a -o $C/rfb-Mp \
    -Wl,-rpath,/usr/local/cuda/lib -L/usr/local/cuda/targets/x86_64-linux/lib \
    /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart
  strip $C/rfb-Mp
fi
du -sh $C
echo "== done in $(($(date +%s) - t0)) s; the device call: bash $H/callV.sh, carrying $C"
