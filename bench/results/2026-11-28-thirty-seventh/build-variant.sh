#!/bin/bash
# The variant rowfuse-bench: the backward objects and the runtime from /work/var/na/tree, every
# other object from build/sass (HEAD's kernels).
set -e
T=/work/var/na/tree; O=/work/var/na/obj; S=/work/main/build/sass
D="-DBOOST_ALL_NO_LIB -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA -DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP"
for f in device kernel_cache plan version workspace_pool; do
  g++ $D -O3 -DNDEBUG -fPIC -std=c++20 -I$T/include -I/usr/local/cuda/include/cccl -isystem /usr/local/cuda/include -c $T/src/$f.cpp -o $O/$f.o
done
ar rcs $O/librt.a $O/device.o $O/kernel_cache.o $O/plan.o $O/version.o $O/workspace_pool.o
cu() { /usr/local/cuda/bin/nvcc $D -I$T/bench -I$T/include -isystem=/usr/local/cuda/include -O3 -DNDEBUG --generate-code=arch=compute_90,code=[compute_90,sm_90] -lineinfo --expt-relaxed-constexpr --extended-lambda --compress-mode=size -std=c++20 -c $S/bench/generated/$1.cu -o $O/$1.o -Xptxas -v > $O/ptxas_$1.txt 2>&1; echo done $1; }
cu backward_fp16 & cu backward_bf16 & wait
B=$S/bench/CMakeFiles/rowfuse-bench.dir
g++ -O3 -DNDEBUG $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o $B/device.cu.o \
  $B/generated/unfused_fp32.cu.o $B/generated/ops_fp32.cu.o $B/generated/backward_fp32.cu.o \
  $B/generated/unfused_fp16.cu.o $B/generated/ops_fp16.cu.o $O/backward_fp16.o $B/generated/pipelines_fp16.cu.o \
  $B/generated/unfused_bf16.cu.o $B/generated/ops_bf16.cu.o $O/backward_bf16.o $B/generated/pipelines_bf16.cu.o \
  -o /work/var/na/rfb-full-unused -Wl,-rpath,/usr/local/cuda/lib $O/librt.a -L/usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart
strip /work/var/na/rfb-na
echo linked
