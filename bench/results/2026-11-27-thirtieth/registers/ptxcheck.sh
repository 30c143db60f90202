#!/bin/bash
# $1 include dir, $2 tag: compile cl.cu with -keep, registers per kernel and PTX per kernel
INC=$1; TAG=$2; W=/tmp/pv/$TAG; rm -rf $W; mkdir -p $W; cd $W
nvcc -O3 -DNDEBUG -std=c++20 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda -I $INC -c /tmp/pv/cl.cu -o cl.o -Xptxas -v -keep > ptxas.txt 2>&1
echo "rc=$? $(ls -la cl.o | awk '{print $5}')"
