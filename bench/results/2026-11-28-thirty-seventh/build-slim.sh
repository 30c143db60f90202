#!/bin/bash
# buildv.sh V: slim rowfuse-bench (backward fp16 alone) from /work/var/V's tree.
set -e
V=$1; T=/work/var/$V; O=$T/obj; S=/work/main/build/sass
D="-DBOOST_ALL_NO_LIB -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA -DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP"
for f in device kernel_cache plan version workspace_pool; do
  g++ $D -O3 -DNDEBUG -fPIC -std=c++20 -I$T/include -I/usr/local/cuda/include/cccl -isystem /usr/local/cuda/include -c $T/src/$f.cpp -o $O/$f.o
done
ar rcs $O/librt.a $O/device.o $O/kernel_cache.o $O/plan.o $O/version.o $O/workspace_pool.o
/usr/local/cuda/bin/nvcc $D -I$T/bench -I$T/include -isystem=/usr/local/cuda/include -O3 -DNDEBUG --generate-code=arch=compute_90,code=[compute_90,sm_90] -lineinfo --expt-relaxed-constexpr --extended-lambda --compress-mode=size -std=c++20 -c $S/bench/generated/backward_fp16.cu -o $O/backward_fp16.o -Xptxas -v > $O/ptxas_backward_fp16.txt 2>&1
B=$S/bench/CMakeFiles/rowfuse-bench.dir
g++ -O3 -DNDEBUG $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o $B/device.cu.o $B/generated/unfused_fp16.cu.o $O/backward_fp16.o \
  -o /work/main/.device-carry/na/rfb-$V -Wl,-rpath,/usr/local/cuda/lib $O/librt.a -L/usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart
strip /work/main/.device-carry/na/rfb-$V
echo built $V
