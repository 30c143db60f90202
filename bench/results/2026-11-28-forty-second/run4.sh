#!/bin/bash
# On the device: the backward GPU suites built from Q's tree (SASS sm_90) under ctest:
# gpu_backward_norm alone first (600 s), then the other three with -j3.
cd "$(dirname "$0")"
d=call4; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for s in gpu_backward_norm gpu_backward_softmax gpu_bad_input_backward gpu_backward_dropout; do
  echo "add_test($s \"$PWD/$s\")"
  echo "set_tests_properties($s PROPERTIES TIMEOUT 600)"
done > CTestTestfile.cmake
start=$(date +%s)
ctest -R gpu_backward_norm -V > $d/ctest-norm.log 2>&1; echo "ctest norm rc=$? $(( $(date +%s) - start )) s"
grep -E "test cases|tests passed|Passed|Failed" $d/ctest-norm.log | tail -4
tar czf $OUT/$d.tgz $d
ctest -E gpu_backward_norm -j3 -V > $d/ctest-rest.log 2>&1; echo "ctest rest rc=$? $(( $(date +%s) - start )) s"
grep -E "test cases|tests passed" $d/ctest-rest.log | tail -6
tar czf $OUT/$d.tgz $d
