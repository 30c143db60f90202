#!/bin/bash
# call78s.sh: on the device, the GPU suites carried in SUITES (default .device-carry/t77d) under
# ctest (as ../2026-12-06-seventy-third/call73s.sh: the project's labels, skip code and timeout),
# gpu.phased_rows on the cases PHASED_CASES names (doctest -tc; default: the residual block's);
# ctest -V's log in $OUT/LOG.log (default ctest78).
cd "$(dirname "$0")"; C=${SUITES:-$PWD/../../../.device-carry/t77d}; L=${LOG:-ctest78}
T=/tmp/$L; mkdir -p $T
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for s in $(cd $C && ls gpu_*); do
  args=""; [ $s = gpu_phased_rows ] && args=" \"-tc=${PHASED_CASES:-*residual block*}\""
  echo "add_test([=[gpu.${s#gpu_}]=] \"$C/$s\"$args)"
  echo "set_tests_properties([=[gpu.${s#gpu_}]=] PROPERTIES LABELS \"gpu\" SKIP_RETURN_CODE \"77\" TIMEOUT \"900\")"
done > $T/CTestTestfile.cmake
ctest --test-dir $T -V -j 8 > $OUT/$L.log 2>&1; rc=$?
grep -E 'test cases:|assertions:|tests passed|Test +#|ERROR|FAILED' $OUT/$L.log | tail -40; exit $rc
