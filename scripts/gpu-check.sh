#!/usr/bin/env bash
# One call on the GPU machine: build everything (release preset), run every test, then the
# benchmark sweep (bench/full-run.sh, peers optional). Logs and results go to $OUT (or ./logs).
#   scripts/gpu-check.sh [--no-tests] [--no-bench] [--peers] [--sanitize] [--future-arch] [--prebuilt]
#     --sanitize      compute-sanitizer memcheck, racecheck, synccheck and initcheck over every
#                     GPU test executable, in the reduced-size mode (ROWFUSE_TEST_SMALL=1); a
#                     table of tool x executable in $OUT/sanitize/summary.md and the log
#     --future-arch   builds tests/gpu/bad_input.cu for sm_100 only and runs its case D2 (a device
#                     older than the build: docs/errors.md) on this machine
#     --prebuilt      use build/release as found (built on another machine and carried here)
# Environment: COLS, REPS, BUDGET_S as bench/full-run.sh takes them; BUILD_TIMEOUT (330 s),
# CTEST_TIMEOUT (200 s);
# SANITIZE_TOOLS (all four), SANITIZE_TESTS (a regex on executable names, all), SANITIZE_JOBS
# (runs at once, 4), SANITIZE_TIMEOUT (seconds per run, 240).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:-logs}
mkdir -p "$out"
tests=1 bench=1 peers=0 sanitize=0 future_arch=0 prebuilt=0
while (($#)); do
  case $1 in
    --no-tests) tests=0 ;;
    --no-bench) bench=0 ;;
    --peers) peers=1 ;;
    --sanitize) sanitize=1 ;;
    --future-arch) future_arch=1 ;;
    --prebuilt) prebuilt=1 ;;
  esac
  shift
done
log=$out/run.log
nvidia-smi -L | tee "$log"
SECONDS=0
if ((prebuilt)); then
  echo "build: skipped (--prebuilt)" | tee -a "$log"
else
  { cmake --preset release -DROWFUSE_BENCH_FP32_PIPELINES=ON &&
    timeout "${BUILD_TIMEOUT:-330}" cmake --build --preset release -j "$(nproc)" -- -k 0; } >"$out/build.txt" 2>&1
  echo "build: exit $?, ${SECONDS} s" | tee -a "$log"
  grep -E "error|FAILED" "$out/build.txt" | head -20 | tee -a "$log"
  grep -E "[1-9][0-9]* bytes spill" -B2 "$out/build.txt" | head -10 >>"$log"
  rm -f "$out/build.txt"
fi
if ((tests)); then
  timeout "${CTEST_TIMEOUT:-200}" ctest --preset release -j 4 --timeout 190 >"$out/ctest.txt" 2>&1
  grep -E "tests passed|Failed|\*\*\*|Not Run|Timeout" "$out/ctest.txt" | head -30 | tee -a "$log"
  grep -B5 -A25 -E "\*\*\*Failed|ERROR|mismatch" "$out/ctest.txt" | head -150 >>"$log"
  # The random differential suites' seeds, counts and reproducers.
  grep -E "^random differential|^FAILED case" "$out/ctest.txt" | head -40 | tee -a "$log"
  rm -f "$out/ctest.txt"
  echo "tests done, ${SECONDS} s" | tee -a "$log"
fi

# ---- sanitizers ---------------------------------------------------------------------------------

# One tool over one executable, in the reduced-size mode; writes the log and a one-line result
# "tool exe status seconds detail" beside it.
sanitize_one() {
  local tool=$1 exe=$2 dir=$3 limit=$4
  local name
  name=$(basename "$exe")
  local logfile=$dir/$tool.$name.txt
  local extra=()
  case $tool in
    memcheck) extra=(--leak-check full) ;;
    racecheck) extra=(--racecheck-report all) ;;
  esac
  local start=$SECONDS
  ROWFUSE_TEST_SMALL=1 timeout "$limit" compute-sanitizer --tool "$tool" --error-exitcode 99 \
    --print-limit 20 "${extra[@]}" "$exe" >"$logfile" 2>&1
  local rc=$? seconds=$((SECONDS - start)) status detail
  detail=$(grep -hoE "(ERROR|RACECHECK) SUMMARY: .*" "$logfile" | tail -1)
  case $rc in
    0) status=clean ;;
    77) status=skipped ;;
    99) status=ERRORS ;;
    124 | 137) status=TIMEOUT ;;
    *) status="TEST-FAILED($rc)" ;;
  esac
  # A clean exit with hazards or errors in the summary is still a finding.
  if [[ $status == clean && -n $detail && ! $detail =~ SUMMARY:\ 0\ (errors|hazards) ]]; then
    status=ERRORS
  fi
  echo "$tool $name $status $seconds ${detail:-}" >"$logfile.result"
}
export -f sanitize_one

if ((sanitize)); then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  export PATH="$(dirname "$sanitizer"):$PATH"
  dir=$out/sanitize
  mkdir -p "$dir"
  rm -f "$dir"/*.result
  tools=${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}
  mapfile -t exes < <(ls build/release/tests/gpu_* 2>/dev/null | grep -E "${SANITIZE_TESTS:-.}")
  echo "sanitize: ${#exes[@]} executables x ($tools), ${SANITIZE_JOBS:-4} at once" | tee -a "$log"
  start=$SECONDS
  for tool in $tools; do
    for exe in "${exes[@]}"; do
      printf '%s %s\n' "$tool" "$exe"
    done
  done | xargs -P "${SANITIZE_JOBS:-4}" -n 2 bash -c \
    'sanitize_one "$0" "$1" '"$dir ${SANITIZE_TIMEOUT:-240}"
  {
    echo "| tool | executable | result | seconds | summary |"
    echo "|---|---|---|---|---|"
    cat "$dir"/*.result | sort | while read -r tool name status seconds detail; do
      echo "| $tool | $name | $status | $seconds | $detail |"
    done
  } >"$dir/summary.md"
  cat "$dir/summary.md" | tee -a "$log"
  clean=$(cat "$dir"/*.result | grep -c " clean ")
  total=$(cat "$dir"/*.result | wc -l)
  echo "sanitize: $clean of $total runs clean, $((SECONDS - start)) s" | tee -a "$log"
  # The first findings of each run that was not clean.
  grep -L " clean \| skipped " "$dir"/*.result | while read -r result; do
    echo "---- ${result%.result}" >>"$log"
    grep -E "=========" "${result%.result}" | head -25 >>"$log"
    grep -E "FAILED|ERROR:" "${result%.result}" | head -10 >>"$log"
  done
fi

# ---- a device older than the build ---------------------------------------------------------------

if ((future_arch)); then
  start=$SECONDS
  {
    cmake -S . -B build/future-arch -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES=100-real -DROWFUSE_BUILD_BENCH=OFF \
      -DROWFUSE_BUILD_EXAMPLES=OFF -DROWFUSE_INSTALL=OFF &&
      timeout 300 cmake --build build/future-arch -j "$(nproc)" --target gpu_bad_input &&
      build/future-arch/tests/gpu_bad_input -tc="D2*" -s
  } >"$out/future-arch.txt" 2>&1
  echo "future-arch (sm_100 build on this device, case D2): exit $?, $((SECONDS - start)) s" |
    tee -a "$log"
  grep -E "D2 message|test cases|ERROR|error" "$out/future-arch.txt" | head -12 | tee -a "$log"
fi

if ((bench)); then
  ((peers)) || export NO_PEERS=1
  OUT=$out/full bash bench/full-run.sh 2>&1 | tail -60 | tee -a "$log"
fi
