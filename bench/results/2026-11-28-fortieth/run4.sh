#!/bin/bash
# On the device: the backward GPU suites built from main's final tree (c6873ae) under ctest; then
# R (main with the 33-64 and 65-128 16-bit norm rows on compile-time groups) checked at 2^24
# elements aligned and off the grid, and timed against W1 (main) at 32-256 columns, fp16, two
# passes. One tarball back.
cd "$(dirname "$0")"
d=call4; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for s in gpu_backward_norm gpu_backward_softmax gpu_bad_input_backward gpu_backward_dropout; do
  echo "add_test($s \"$PWD/$s\")"
  echo "set_tests_properties($s PROPERTIES TIMEOUT 300)"
done > CTestTestfile.cmake
ctest -j4 -V > $d/ctest.log 2>&1; echo "ctest rc=$?"; grep -E "test cases|tests passed" $d/ctest.log | tail -6
tar czf $OUT/$d.tgz $d
if [ -x rfb-R ]; then
  ops=layernorm_backward,rmsnorm_backward,residual_backward
  ./rfb-R --op $ops --dtype fp16 --cols 32:256,48,96,100,120 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-R.csv > /dev/null 2>&1; echo "check R rc=$?"
  ./rfb-R --op $ops --dtype fp16 --cols 33,50,100,120,127,200 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-R.csv > /dev/null 2>&1; echo "check misaligned R rc=$?"
  tar czf $OUT/$d.tgz $d
  for pass in 1 2; do for v in W1 R; do
    ./rfb-$v --op $ops --dtype fp16 --cols 32:256,48,96,120 --variant fused,copy --no-check --budget-ms 60 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
    echo "pass $pass $v rc=$? $(date +%T)"
  done; done
  python3 table.py $d W1 R > $d/table-R.txt; cat $d/table-R.txt
  tar czf $OUT/$d.tgz $d
fi
