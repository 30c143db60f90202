#!/bin/bash
# The final slim bench: runtime and backward_fp32 from /work/var/F (main's tree), the 16-bit
# backward objects from /work/var/na/objf (the same 16-bit tables), every other object from build/sass.
set -e
T=/work/var/G; O=$T/obj; S=/work/main/build/sass
D="-DBOOST_ALL_NO_LIB -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA -DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP"
for f in device kernel_cache plan version workspace_pool; do
  g++ $D -O3 -DNDEBUG -fPIC -std=c++20 -I$T/include -I/usr/local/cuda/include/cccl -isystem /usr/local/cuda/include -c $T/src/$f.cpp -o $O/$f.o
done
ar rcs $O/librt.a $O/device.o $O/kernel_cache.o $O/plan.o $O/version.o $O/workspace_pool.o
for t in fp32 fp16 bf16; do /usr/local/cuda/bin/nvcc $D -I$T/bench -I$T/include -isystem=/usr/local/cuda/include -O3 -DNDEBUG --generate-code=arch=compute_90,code=[compute_90,sm_90] -lineinfo --expt-relaxed-constexpr --extended-lambda --compress-mode=size -std=c++20 -c $S/bench/generated/backward_$t.cu -o $O/backward_$t.o -Xptxas -v > $O/ptxas_backward_$t.txt 2>&1; done
B=$S/bench/CMakeFiles/rowfuse-bench.dir; N=/work/var/na/objf
common="$B/main.cpp.o $B/options.cpp.o $B/report.cpp.o $B/device.cu.o $B/generated/unfused_fp32.cu.o $B/generated/unfused_fp16.cu.o $B/generated/unfused_bf16.cu.o"
tail="-Wl,-rpath,/usr/local/cuda/lib -L/usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart"
g++ -O3 -DNDEBUG $common $O/backward_fp32.o $O/backward_fp16.o $O/backward_bf16.o -o /work/main/.device-carry/na/rfb-final2 $O/librt.a $tail
echo linked
