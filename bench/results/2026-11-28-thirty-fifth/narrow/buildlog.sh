#!/bin/bash
# build.sh NAME INCLUDE_ROOT: abn_NAME from abn.cu against ROOT/include and ROOT/src.
set -e
cd /work/main/.device-carry/abn
root=$2
/usr/local/cuda/bin/nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda \
  -DABN_LOG_SOFTMAX -I$root/include abn.cu $root/src/*.cpp -o abnlog_$1 -Xptxas -v > ptxaslog_$1.txt 2>&1
echo built $1
