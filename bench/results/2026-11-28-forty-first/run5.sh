#!/bin/bash
# On the device: the backward GPU suites built from F's tree (the working tree committed as main)
# under ctest; F (interleaved chunks up to 128 columns, the walk's jump carried) checked fused
# against unfused at 2^24 elements, aligned and off the grid, fp16 and fp32; then F timed against
# W1 (main before it), layernorm / rmsnorm / residual backward, fp16 and fp32, 32-65536 and 96 / 120
# columns, two interleaved passes; then off the grid, one pass. One tarball, refreshed as it goes.
cd "$(dirname "$0")"
d=call5; mkdir -p $d/mis
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for s in gpu_backward_norm gpu_backward_softmax gpu_bad_input_backward gpu_backward_dropout; do
  echo "add_test($s \"$PWD/$s\")"
  echo "set_tests_properties($s PROPERTIES TIMEOUT 300)"
done > CTestTestfile.cmake
ctest -j4 -V > $d/ctest.log 2>&1; echo "ctest rc=$?"; grep -E "test cases|tests passed" $d/ctest.log | tail -6
tar czf $OUT/$d.tgz $d
ops=layernorm_backward,rmsnorm_backward,residual_backward
./rfb-F --op $ops --dtype fp16,fp32 --cols 32:65536,96,120,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-F.csv > /dev/null 2>&1; echo "check F rc=$?"
./rfb-F --op $ops --dtype fp16,fp32 --cols 33,100,127,200,511,1000,4097 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-F.csv > /dev/null 2>&1; echo "check misaligned F rc=$?"
tar czf $OUT/$d.tgz $d
for pass in 1 2; do for v in W1 F; do
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 32:65536,96,120 --variant fused,copy --no-check --budget-ms 50 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
python3 table.py $d W1 F > $d/table.txt; cat $d/table.txt
for v in W1 F; do
  ./rfb-$v --op ${ops%,residual_backward} --dtype fp16,fp32 --cols 33,100,127,200,511 --misalign --variant fused,copy --no-check --budget-ms 40 --format csv --out $d/mis/time-$v-1.csv > /dev/null 2>&1
  echo "misaligned $v rc=$? $(date +%T)"
done
python3 table.py $d/mis W1 F > $d/table-mis.txt; cat $d/table-mis.txt
tar czf $OUT/$d.tgz $d
