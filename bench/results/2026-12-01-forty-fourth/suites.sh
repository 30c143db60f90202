#!/bin/bash
# suites.sh DIR: on the device, the GPU suites carried in .device-carry/s44/tests, built on the
# development machine (SASS sm_90, full device optimisation), under ctest: call5 (the first seven
# suites that draw dropout), then call6-a ... call6-d (every suite that draws dropout, in groups
# under the 64 MiB a call carries).
cd "$(dirname "$0")"
C=../../../.device-carry/s44; d=$1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
T=$(cd $C/tests && pwd); mkdir -p /tmp/ct-$1
for t in $T/gpu_*; do n=$(basename $t); echo "add_test(gpu.${n#gpu_} \"$t\")"; echo "set_tests_properties(gpu.${n#gpu_} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)"; done > /tmp/ct-$1/CTestTestfile.cmake
ctest --test-dir /tmp/ct-$1 --output-on-failure -j 4 2>&1 | tee $d/ctest.log | tail -14
tar czf $OUT/$d.tgz $d
