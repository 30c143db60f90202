#!/bin/bash
# prepare-variants.sh V...: slim rowfuse-bench builds for an A/B against main, fp16 and bf16 ops.
# M: main as the full run timed it (build/device-slim's ops and unfused objects and its runtime);
# each V: the ops units of fp16 and bf16 and the runtime compiled from /work/var/s67/V (a copy of
# main's tree with V's diff applied: quack-shapes-V51.diff, rmsnorm-shared-gamma-V52.diff), every
# other object from build/device-slim. SASS sm_90, the device preset's flags, no -lineinfo.
# Writes .device-carry/s67/rfb-M and rfb-V, ptxas -v beside each V's objects.
set -e
R=/work/main; S=$R/build/device-slim; B=$S/bench/CMakeFiles/rowfuse-bench.dir; C=$R/.device-carry/s67
D="-DBOOST_ALL_NO_LIB -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA -DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP"
mkdir -p $C
link() { # output objects... runtime
  g++ -O3 -DNDEBUG $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o $B/device.cu.o \
    $B/generated/unfused_fp16.cu.o $B/generated/unfused_bf16.cu.o "${@:2}" -o $C/$1 \
    -Wl,-rpath,/usr/local/cuda/lib -L/usr/local/cuda/targets/x86_64-linux/lib \
    /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart
  strip $C/$1
}
[ -x $C/rfb-M ] || link rfb-M $B/generated/ops_fp16.cu.o $B/generated/ops_bf16.cu.o $S/librowfuse_runtime.a
for V in "$@"; do
  T=/work/var/s67/$V; O=$T/obj; mkdir -p $O
  for f in device kernel_cache plan version workspace_pool; do
    g++ $D -O3 -DNDEBUG -fPIC -std=c++20 -I$T/include -I/usr/local/cuda/include/cccl \
      -isystem /usr/local/cuda/include -c $T/src/$f.cpp -o $O/$f.o
  done
  ar rcs $O/librt.a $O/device.o $O/kernel_cache.o $O/plan.o $O/version.o $O/workspace_pool.o
  for t in fp16 bf16; do
    /usr/local/cuda/bin/nvcc $D -I$T/bench -I$T/include -isystem=/usr/local/cuda/include -O3 \
      -DNDEBUG --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr \
      --extended-lambda --compress-mode=size -std=c++20 -c $S/bench/generated/ops_$t.cu \
      -o $O/ops_$t.o -Xptxas -v > $O/ptxas_ops_$t.txt 2>&1 &
  done
  wait
  link rfb-$V $O/ops_fp16.o $O/ops_bf16.o $O/librt.a
done
ls -la $C/rfb-*
