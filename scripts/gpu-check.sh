#!/usr/bin/env bash
# One call on the GPU machine: build everything (release preset), run every test, then the
# benchmark sweep (bench/full-run.sh, peers optional). Logs and results go to $OUT (or ./logs).
#   scripts/gpu-check.sh [--no-tests] [--no-bench] [--peers]
# Environment: COLS, REPS, BUDGET_S as bench/full-run.sh takes them.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:-logs}
mkdir -p "$out"
tests=1 bench=1 peers=0
while (($#)); do
  case $1 in
    --no-tests) tests=0 ;;
    --no-bench) bench=0 ;;
    --peers) peers=1 ;;
  esac
  shift
done
log=$out/run.log
nvidia-smi -L | tee "$log"
SECONDS=0
{ cmake --preset release -DROWFUSE_BENCH_FP32_PIPELINES=ON &&
  timeout 330 cmake --build --preset release -j "$(nproc)" -- -k 0; } >"$out/build.txt" 2>&1
echo "build: exit $?, ${SECONDS} s" | tee -a "$log"
grep -E "error|FAILED" "$out/build.txt" | head -20 | tee -a "$log"
grep -E "[1-9][0-9]* bytes spill" -B2 "$out/build.txt" | head -10 >>"$log"
rm -f "$out/build.txt"
if ((tests)); then
  timeout 200 ctest --preset release -j 4 --timeout 190 >"$out/ctest.txt" 2>&1
  grep -E "tests passed|Failed|\*\*\*|Not Run|Timeout" "$out/ctest.txt" | head -30 | tee -a "$log"
  grep -B5 -A25 -E "\*\*\*Failed|ERROR|mismatch" "$out/ctest.txt" | head -150 >>"$log"
  rm -f "$out/ctest.txt"
  echo "tests done, ${SECONDS} s" | tee -a "$log"
fi
if ((bench)); then
  ((peers)) || export NO_PEERS=1
  OUT=$out/full bash bench/full-run.sh 2>&1 | tail -60 | tee -a "$log"
fi
