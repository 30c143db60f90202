#!/usr/bin/env bash
# One call on the GPU machine: build, GPU tests, a benchmark sweep, and optionally ncu and SASS
# for a few kernels. Logs go to $OUT (or ./logs). Usage:
#   scripts/gpu-check.sh [--no-tests] [--ncu] [--bench "rowfuse-bench args"]
set -uo pipefail
out=${OUT:-logs}
mkdir -p "$out"
tests=1 ncu=0 bench_args="--ops softmax,log_softmax,layernorm,rmsnorm,attention"
while (($#)); do
  case $1 in
    --no-tests) tests=0 ;;
    --ncu) ncu=1 ;;
    --bench) bench_args=$2; shift ;;
  esac
  shift
done
build=/tmp/rowfuse-build
nvidia-smi -L | tee "$out/device.txt"
cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  >"$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
start=$(date +%s)
cmake --build $build -j "$(nproc)" -- -k 0 >"$out/build.log" 2>&1
echo "build: exit $?, $(($(date +%s) - start)) s"
grep -E "error|FAILED" "$out/build.log" | head -20
if ((tests)); then
  ctest --test-dir $build --output-on-failure -j 4 --timeout 500 >"$out/ctest.log" 2>&1
  grep -E "tests passed|Failed|\*\*\*|Skipped" "$out/ctest.log" | head -30
fi
if ((ncu)) && command -v ncu >/dev/null; then
  for spec in "softmax fp16 2048" "layernorm fp16 2048" "softmax fp16 32" "softmax fp16 16384"; do
    set -- $spec
    ncu --clock-control none --kernel-name regex:'register_kernel|streaming_kernel' \
      --launch-skip 3 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
      $build/bench/rowfuse-bench --ops "$1" --dtype "$2" --cols "$3" --reps 1 \
      >"$out/ncu-$1-$2-$3.txt" 2>&1
    grep -E "DRAM Throughput|Memory Throughput|Duration|Achieved Occupancy|Registers Per|Stall|Grid Size|Block Size" \
      "$out/ncu-$1-$2-$3.txt" | head -14 | sed "s/^/[$1 $2 $3] /"
  done
  cuobjdump -sass $build/bench/CMakeFiles/rowfuse-bench.dir/softmax_variants.cu.o 2>/dev/null |
    grep -oE "(LDG|STG|LDS|STS)\.E?[.A-Z0-9]*" | sort | uniq -c >"$out/sass-memops.txt"
  cat "$out/sass-memops.txt"
fi
# shellcheck disable=SC2086
timeout 400 $build/bench/rowfuse-bench $bench_args | tee "$out/bench.csv" |
  awk -F, 'NR > 1 { printf "%-12s %-5s %7s %6.3f\n", $2, $3, $5, $9 }'
