#!/bin/bash
# link.sh V: link .device-carry/s57/rfb-V from /work/var/s57/V/obj (ops fp16, fp32, pipelines fp16)
V=$1; O=/work/var/s57/$V/obj; B=/work/main/build/sass/bench/CMakeFiles/rowfuse-bench.dir
g++ -O3 -DNDEBUG $B/main.cpp.o $B/options.cpp.o $B/report.cpp.o $B/device.cu.o $B/generated/unfused_fp16.cu.o $B/generated/unfused_fp32.cu.o \
  $O/ops_fp16.o $O/ops_fp32.o $O/pipelines_fp16.o -o /work/main/.device-carry/s57/rfb-$V -Wl,-rpath,/usr/local/cuda/lib $O/librt.a \
  -L/usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib/libcudart.so -lcudadevrt -lcudart && strip /work/main/.device-carry/s57/rfb-$V && echo linked $V
