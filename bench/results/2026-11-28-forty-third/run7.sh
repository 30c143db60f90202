#!/bin/bash
# On the device: the norms' backward GPU suites built from main's final tree (SASS for sm_90, full
# device optimisation: ROWFUSE_GPU_TESTS_FAST_COMPILE=OFF): gpu_backward_norm alone (ctest's
# TIMEOUT 600), then gpu_bad_input_backward and gpu_backward_dropout side by side.
cd "$(dirname "$0")"
d=call7; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
cd suites
cat > CTestTestfile.cmake <<'CT'
add_test(gpu_backward_norm "./gpu_backward_norm")
set_tests_properties(gpu_backward_norm PROPERTIES TIMEOUT 600)
add_test(gpu_bad_input_backward "./gpu_bad_input_backward")
set_tests_properties(gpu_bad_input_backward PROPERTIES TIMEOUT 600)
add_test(gpu_backward_dropout "./gpu_backward_dropout")
set_tests_properties(gpu_backward_dropout PROPERTIES TIMEOUT 600)
CT
ctest -R gpu_backward_norm -V > ../$d/ctest-norm.log 2>&1; echo "norm rc=$? $(date +%T)"
tail -5 ../$d/ctest-norm.log
tar czf $OUT/$d.tgz -C .. $d
ctest -E gpu_backward_norm -j2 -V > ../$d/ctest-rest.log 2>&1; echo "rest rc=$? $(date +%T)"
tail -5 ../$d/ctest-rest.log
grep -h "test cases:\|assertions:\|tests passed" ../$d/ctest-*.log
tar czf $OUT/$d.tgz -C .. $d
