#!/bin/bash
# call76s.sh: on the device, the GPU suites built with VL carried in .device-carry/t76s under ctest
# (as ../2026-12-06-seventy-third/call73s.sh, the project's labels, skip code and timeout), with
# gpu.phased_rows run on its layernorm cases alone (doctest -tc=*layernorm*: VL changes only
# layernorm's kernels), so that it fits the device time left; ctest -V's log in $OUT/ctest76.log.
# SUITES (a folder) and LOG (a name) override the carried folder and the log's name.
cd "$(dirname "$0")"; C=${SUITES:-$PWD/../../../.device-carry/t76s}; L=${LOG:-ctest76}
T=/tmp/$L; mkdir -p $T
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for s in $(cd $C && ls gpu_*); do
  args=""; [ $s = gpu_phased_rows ] && args=" \"-tc=*layernorm*\""
  echo "add_test([=[gpu.${s#gpu_}]=] \"$C/$s\"$args)"
  echo "set_tests_properties([=[gpu.${s#gpu_}]=] PROPERTIES LABELS \"gpu\" SKIP_RETURN_CODE \"77\" TIMEOUT \"900\")"
done > $T/CTestTestfile.cmake
ctest --test-dir $T -V -j 8 > $OUT/$L.log 2>&1; rc=$?
grep -E 'test cases:|assertions:|tests passed|Test +#' $OUT/$L.log | tail -40; exit $rc
