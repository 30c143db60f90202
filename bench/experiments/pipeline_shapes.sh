#!/bin/sh
# bench/experiments/pipeline_shapes.sh JOBS OUT.csv [PARTS], from the repository root: builds the
# parts of pipeline_shapes.cu (JOBS nvcc at once; PARTS defaults to the fp16 parts 0-7, bf16 is
# 8-15), then runs them one after another into one CSV (one header line). NVCC overrides nvcc.
set -e; dir=$(mktemp -d); parts=${3:-0 1 2 3 4 5 6 7}; echo $parts | tr ' ' '\n' | xargs -P "$1" -I{} "${NVCC:-/usr/local/cuda/bin/nvcc}" -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda -Iinclude -DPIPELINE_SHAPES_PART={} bench/experiments/pipeline_shapes.cu src/*.cpp -o "$dir/part{}"; for k in $parts; do "$dir/part$k"; done | awk 'NR == 1 || !/^pipeline,/' > "$2"
