#!/bin/bash
# prepare-pipelines.sh V...: slim rowfuse-bench builds of the pipelines alone (fp16, bf16, fp32)
# for an A/B: each V from /work/var/s67/V (a tree made by `git archive`, with V's change), its
# runtime and pipelines units compiled there (SASS sm_90, the device preset's flags, no -lineinfo,
# ptxas -v beside the objects), the bench's host objects and unfused units from build/device-slim
# (../2026-12-05-sixty-eighth/prepare-lease.sh step 1, and unfused_fp32). Writes
# .device-carry/s77/rfb-V (CARRY: another folder under .device-carry).
set -e
R=/work/main; S=$R/build/device-slim; B=$S/bench/CMakeFiles/rowfuse-bench.dir; C=$R/.device-carry/${CARRY:-s77}
D="-DBOOST_ALL_NO_LIB -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA -DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP"
mkdir -p $C
ninja -C $S bench/CMakeFiles/rowfuse-bench.dir/generated/unfused_fp32.cu.o > /dev/null
for V in "$@"; do
  T=/work/var/s67/$V; O=$T/obj; mkdir -p $O
  for f in device kernel_cache plan version workspace_pool; do
    g++ $D -O3 -DNDEBUG -fPIC -std=c++20 -I$T/include -I/usr/local/cuda/include/cccl \
      -isystem /usr/local/cuda/include -c $T/src/$f.cpp -o $O/$f.o
  done
  ar rcs $O/librt.a $O/device.o $O/kernel_cache.o $O/plan.o $O/version.o $O/workspace_pool.o
  for t in ${TYPES:-fp16 bf16 fp32}; do
    /usr/local/cuda/bin/nvcc $D -I$T/bench -I$T/include -isystem=/usr/local/cuda/include -O3 \
      -DNDEBUG --generate-code=arch=compute_90,code=[sm_90] --expt-relaxed-constexpr \
      --extended-lambda --compress-mode=size -std=c++20 -c $S/bench/generated/pipelines_$t.cu \
      -o $O/pipelines_$t.o -Xptxas -v > $O/ptxas_pipelines_$t.txt 2>&1 &
  done
  wait
  objs=; for t in ${TYPES:-fp16 bf16 fp32}; do objs="$objs $O/pipelines_$t.o"; done
  g++ -O3 -DNDEBUG $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o $B/device.cu.o \
    $B/generated/unfused_fp16.cu.o $B/generated/unfused_bf16.cu.o $B/generated/unfused_fp32.cu.o \
    $objs $O/librt.a -o $C/rfb-$V \
    -Wl,-rpath,/usr/local/cuda/lib -L/usr/local/cuda/targets/x86_64-linux/lib \
    /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart
  strip $C/rfb-$V
done
ls -la $C/rfb-*
