#!/bin/bash
# On the device: the backward GPU suites built from main's final tree (c2363ce) with SASS for sm_90,
# under ctest -V.
cd "$(dirname "$0")"
out=${OUT:-.}
d=call7; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for s in gpu_backward_norm gpu_backward_softmax gpu_bad_input_backward gpu_backward_dropout; do
  echo "add_test($s \"$PWD/$s\")"
  echo "set_tests_properties($s PROPERTIES TIMEOUT 300)"
done > CTestTestfile.cmake
ctest -j4 -V > $d/ctest.log 2>&1; echo "ctest rc=$?"; grep -E "test cases|assertions|tests passed" $d/ctest.log | tail -10
tar czf $out/$d.tgz $d
