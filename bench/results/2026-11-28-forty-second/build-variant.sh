#!/bin/bash
# build-variant.sh V [types]: slim rowfuse-bench (the backward families of `types`, default fp16)
# from the tree /work/var/s42/V (git archive of HEAD, or the working tree of a variant): the backward
# objects and the runtime compiled from the tree, every other object from build/sass.
set -e
V=$1; types=${2:-fp16}; T=/work/var/s42/$V; O=$T/obj; S=/work/main/build/sass
D="-DBOOST_ALL_NO_LIB -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA -DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP"
mkdir -p $O
for f in device kernel_cache plan version workspace_pool; do
  g++ $D -O3 -DNDEBUG -fPIC -std=c++20 -I$T/include -I/usr/local/cuda/include/cccl -isystem /usr/local/cuda/include -c $T/src/$f.cpp -o $O/$f.o
done
ar rcs $O/librt.a $O/device.o $O/kernel_cache.o $O/plan.o $O/version.o $O/workspace_pool.o
B=$S/bench/CMakeFiles/rowfuse-bench.dir
objs=""
for t in ${types//,/ }; do
  /usr/local/cuda/bin/nvcc $D -I$T/bench -I$T/include -isystem=/usr/local/cuda/include -O3 -DNDEBUG \
    --generate-code=arch=compute_90,code=[compute_90,sm_90] -lineinfo --expt-relaxed-constexpr \
    --extended-lambda --compress-mode=size -std=c++20 -c $S/bench/generated/backward_$t.cu \
    -o $O/backward_$t.o -Xptxas -v > $O/ptxas_backward_$t.txt 2>&1
  objs="$objs $B/generated/unfused_$t.cu.o $O/backward_$t.o"
done
g++ -O3 -DNDEBUG $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o $B/device.cu.o $objs \
  -o /work/main/.device-carry/s42/rfb-$V -Wl,-rpath,/usr/local/cuda/lib $O/librt.a \
  -L/usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart
strip /work/main/.device-carry/s42/rfb-$V
echo built $V
