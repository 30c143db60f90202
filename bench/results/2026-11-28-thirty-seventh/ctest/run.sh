#!/bin/bash
# On the device: the backward GPU suites and the attention backward example (built on the
# development machine from main's tree, SASS for sm_90) under ctest.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in gpu_backward_softmax gpu_backward_norm gpu_bad_input_backward gpu_backward_dropout example_attention_backward; do
  echo "add_test($s \"$PWD/$s\")"
  echo "set_tests_properties($s PROPERTIES TIMEOUT 300)"
done > CTestTestfile.cmake
ctest -j2 --output-on-failure 2>&1 | tee $OUT/ctest.log
