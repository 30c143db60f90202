#!/bin/bash
# build.sh NAME ROOT: ab_NAME from ab.cu against ROOT/include and ROOT/src.
set -e
cd /work/main/.device-carry/ab36
root=$2
/usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
  -I$root/include ab.cu $root/src/*.cpp -o ab_$1 -Xptxas -v > ptxas_$1.txt 2>&1
echo built $1
