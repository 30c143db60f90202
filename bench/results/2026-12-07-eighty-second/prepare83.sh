#!/bin/bash
# prepare83.sh: on the development machine (no GPU), from a fresh checkout of main, what
# call83ab.sh and call83s.sh carry: build/device-slim (the device preset, sm_90 SASS, no -lineinfo;
# its GPU suites neither PTX-only nor fast-compiled) and of it the bench's host objects and the
# runtime; the variant trees /work/var/s67/V82c (main) and V83a (V83a.diff) and their slim fp16 /
# bf16 pipelines builds (.device-carry/s82c, s83); gpu_phased_rows from main (.device-carry/t83)
# and from V83a's tree with 240001 columns in the residual case (.device-carry/t83v). Needs
# libboost-dev and doctest-dev (.ci/run installs them). About 65 min on two cores.
set -e
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R; S=build/device-slim
B=bench/CMakeFiles/rowfuse-bench.dir; H=bench/results/2026-12-07-eighty-second
[ -f $S/build.ninja ] ||
  cmake --preset device -B $S -DCMAKE_CUDA_ARCHITECTURES=90-real -DROWFUSE_LINEINFO=OFF > /dev/null
ninja -C $S -j2 librowfuse_runtime.a $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o \
  $B/device.cu.o $B/generated/unfused_fp16.cu.o $B/generated/unfused_bf16.cu.o
for v in V82c V83a; do
  rm -rf /work/var/s67/$v && mkdir -p /work/var/s67/$v && git archive HEAD | tar x -C /work/var/s67/$v
done
(cd /work/var/s67/V83a && patch -s -p1 < $R/$H/V83a.diff &&
  sed -i -e 's/140001-200003 on rows read back for phased plans/140001-240001 on rows read back for phased plans/' \
    -e 's/(of seven, five, six and seven packs a thread)/(of seven, five, six, seven and four packs a thread)/' \
    -e 's/140001L, 180001L, 200003L})/140001L, 180001L, 200003L, 240001L})/' tests/gpu/phased_rows.cu &&
  clang-format -i --style=file:$R/.clang-format tests/gpu/phased_rows.cu)
TYPES="fp16 bf16" CARRY=s82c bash bench/results/2026-12-07-seventy-seventh/prepare-pipelines.sh V82c
TYPES="fp16 bf16" CARRY=s83 bash bench/results/2026-12-07-seventy-seventh/prepare-pipelines.sh V83a
ninja -C $S -j2 tests/gpu_phased_rows
mkdir -p .device-carry/t83 && cp $S/tests/gpu_phased_rows .device-carry/t83/ && strip .device-carry/t83/gpu_phased_rows
V=/work/var/s67/V83a/build/slim
cmake --preset device -S /work/var/s67/V83a -B $V -DCMAKE_CUDA_ARCHITECTURES=90-real -DROWFUSE_LINEINFO=OFF > /dev/null
ninja -C $V -j2 tests/gpu_phased_rows
mkdir -p .device-carry/t83v && cp $V/tests/gpu_phased_rows .device-carry/t83v/ && strip .device-carry/t83v/gpu_phased_rows
ls -la .device-carry/*/
