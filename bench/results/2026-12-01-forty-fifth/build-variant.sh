#!/bin/bash
# build-variant.sh V [families] [types]: slim rowfuse-bench from the tree /work/var/$G/V (G: $GROUP, s45 if unset; git
# archive of a commit, or a copy of a working tree): the families' objects (default pipelines) of
# `types` (default fp16,bf16) and the host runtime compiled from that tree (the plan indexes the
# tables its kernels came from), every other object from build/sass (configured with SASS for
# sm_90, no fast compile). Writes .device-carry/$G/rfb-V. KEEP: more objects of the tree's obj/ to
# link (families built before, e.g. "pipelines_fp16 pipelines_bf16"). SOURCES: where the families'
# translation units are (build/sass's generated ones unless set).
set -e
G=${GROUP:-s45}; V=$1; families=${2:-pipelines}; types=${3:-fp16,bf16}; T=/work/var/$G/$V; O=$T/obj; S=/work/main/build/sass
D="-DBOOST_ALL_NO_LIB -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA -DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP"
mkdir -p $O /work/main/.device-carry/$G
for f in device kernel_cache plan version workspace_pool; do
  g++ $D -O3 -DNDEBUG -fPIC -std=c++20 -I$T/include -I/usr/local/cuda/include/cccl -isystem /usr/local/cuda/include -c $T/src/$f.cpp -o $O/$f.o
done
ar rcs $O/librt.a $O/device.o $O/kernel_cache.o $O/plan.o $O/version.o $O/workspace_pool.o
B=$S/bench/CMakeFiles/rowfuse-bench.dir
objs=""; jobs=()
for t in ${types//,/ }; do
  objs="$objs $B/generated/unfused_$t.cu.o"
  for f in ${families//,/ }; do
    /usr/local/cuda/bin/nvcc $D -I$T/bench -I$T/include -isystem=/usr/local/cuda/include -O3 -DNDEBUG \
      --generate-code=arch=compute_90,code=[compute_90,sm_90] -lineinfo --expt-relaxed-constexpr \
      --extended-lambda --compress-mode=size -std=c++20 -c ${SOURCES:-$S/bench/generated}/${f}_$t.cu \
      -o $O/${f}_$t.o -Xptxas -v > $O/ptxas_${f}_$t.txt 2>&1 &
    jobs+=($!); objs="$objs $O/${f}_$t.o"
  done
done
for j in "${jobs[@]}"; do wait $j; done
for k in $KEEP; do objs="$objs $O/$k.o"; done
g++ -O3 -DNDEBUG $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o $B/device.cu.o $objs \
  -o /work/main/.device-carry/$G/rfb-$V -Wl,-rpath,/usr/local/cuda/lib $O/librt.a \
  -L/usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart
strip /work/main/.device-carry/$G/rfb-$V
echo built $V
