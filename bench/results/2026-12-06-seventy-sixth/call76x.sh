#!/bin/bash
# call76s.sh: on the device, the GPU suites built with VL carried in .device-carry/t76x under ctest
# (as ../2026-12-06-seventy-third/call73s.sh, the project's labels, skip code and timeout), with
# no phased_rows
# layernorm's kernels), so that it fits the device time left; ctest -V's log in $OUT/ctest76x.log.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/t76x; T=/tmp/ctest76x; mkdir -p $T
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for s in $(cd $C && ls gpu_*); do
  args=""; [ $s = gpu_phased_rows ] && args=" \"-tc=*layernorm*\""
  echo "add_test([=[gpu.${s#gpu_}]=] \"$C/$s\"$args)"
  echo "set_tests_properties([=[gpu.${s#gpu_}]=] PROPERTIES LABELS \"gpu\" SKIP_RETURN_CODE \"77\" TIMEOUT \"900\")"
done > $T/CTestTestfile.cmake
ctest --test-dir $T -V -j 8 > $OUT/ctest76x.log 2>&1; rc=$?
grep -E 'test cases:|assertions:|tests passed|Test +#' $OUT/ctest76x.log | tail -40; exit $rc
