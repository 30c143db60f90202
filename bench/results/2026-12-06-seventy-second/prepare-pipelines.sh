#!/bin/bash
# prepare-pipelines.sh V...: slim rowfuse-bench builds of the fp16 pipelines (and the fp16 ops) for
# an A/B, as ../2026-12-05-sixty-seventh/prepare-variants.sh builds the ops: each V from
# /work/var/s67/V (its runtime and ops objects from prepare-variants.sh, pipelines_fp16 compiled
# here), every other object from build/device-slim. Writes .device-carry/s67/rfb-V-p.
set -e
R=/work/main; S=$R/build/device-slim; B=$S/bench/CMakeFiles/rowfuse-bench.dir; C=$R/.device-carry/s67
D="-DBOOST_ALL_NO_LIB -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA -DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP"
for V in "$@"; do
  T=/work/var/s67/$V; O=$T/obj
  /usr/local/cuda/bin/nvcc $D -I$T/bench -I$T/include -isystem=/usr/local/cuda/include -O3 \
    -DNDEBUG --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr \
    --extended-lambda --compress-mode=size -std=c++20 -c $S/bench/generated/pipelines_fp16.cu \
    -o $O/pipelines_fp16.o -Xptxas -v > $O/ptxas_pipelines_fp16.txt 2>&1 &
done
wait
for V in "$@"; do
  O=/work/var/s67/$V/obj
  g++ -O3 -DNDEBUG $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o $B/device.cu.o \
    $B/generated/unfused_fp16.cu.o $B/generated/unfused_bf16.cu.o $O/ops_fp16.o $O/ops_bf16.o \
    $O/pipelines_fp16.o $O/librt.a -o $C/rfb-$V-p \
    -Wl,-rpath,/usr/local/cuda/lib -L/usr/local/cuda/targets/x86_64-linux/lib \
    /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart
  strip $C/rfb-$V-p
done
ls -la $C/rfb-*-p
