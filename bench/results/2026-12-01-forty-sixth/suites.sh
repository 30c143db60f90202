#!/bin/bash
# suites.sh DIR: on the device, the GPU suites carried in .device-carry/s45t (a group of them),
# built on the development machine (SASS sm_90, full device optimisation, from this session's
# tree), under ctest.
cd "$(dirname "$0")"
C=../../../.device-carry/${GROUP:-s46t}; d=$1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
T=$(cd $C && pwd); mkdir -p /tmp/ct-$1
for t in $T/gpu_*; do n=$(basename $t); echo "add_test(gpu.${n#gpu_} \"$t\")"; echo "set_tests_properties(gpu.${n#gpu_} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)"; done > /tmp/ct-$1/CTestTestfile.cmake
ctest --test-dir /tmp/ct-$1 --output-on-failure -j 4 2>&1 | tee $d/ctest.log | tail -30
tar czf $OUT/$d.tgz $d
