#!/bin/bash
# call73s.sh: on the device, the GPU suites carried in .device-carry/s95 (build/device-slim, the
# device preset for sm_90 SASS, stripped) under ctest, from a CTestTestfile written here with the
# project's names, labels, skip code and timeout (tests/CMakeLists.txt); ctest -V's log (each
# suite's doctest summary) in $OUT/ctest73.log, its last lines on stdout. SUITES (a folder) and LOG
# (a name) override the carried folder and the log's name.
cd "$(dirname "$0")"; C=${SUITES:-$PWD/../../../.device-carry/s95}; L=${LOG:-ctest73}
T=/tmp/$L; mkdir -p $T
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
for s in $(cd $C && ls gpu_*); do
  echo "add_test([=[gpu.${s#gpu_}]=] \"$C/$s\")"
  echo "set_tests_properties([=[gpu.${s#gpu_}]=] PROPERTIES LABELS \"gpu\" SKIP_RETURN_CODE \"77\" TIMEOUT \"900\")"
done > $T/CTestTestfile.cmake
ctest --test-dir $T -V -j ${JOBS:-3} > $OUT/$L.log 2>&1; rc=$?
grep -E 'test cases:|assertions:|tests passed|Test +#' $OUT/$L.log | tail -40; exit $rc
