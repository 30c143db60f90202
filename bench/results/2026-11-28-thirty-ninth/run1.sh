#!/bin/bash
# On the device: the backward GPU suites built from A's tree (the working tree) under ctest; then
# base (HEAD) against A (the norms' backward reads each row's saved statistics a row ahead), fp16
# and fp32, each build checked fused against unfused aligned and off the grid, then timed
# interleaved, three passes. C: A with the chunk walk advanced from the step before (chunk_walk::next).
# run1.sh check: the suites and the checks (call1); run1.sh time: the timed passes (call2).
cd "$(dirname "$0")"
out=${OUT:-.}
mode=${1:-check}
d=call1; [ $mode = time ] && d=call2
mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for s in gpu_backward_norm gpu_backward_softmax gpu_bad_input_backward gpu_backward_dropout; do
  echo "add_test($s \"$PWD/$s\")"
  echo "set_tests_properties($s PROPERTIES TIMEOUT 300)"
done > CTestTestfile.cmake
[ $mode = check ] && ctest -j4 -V > $d/ctest.log 2>&1; echo "ctest rc=$?"; grep -E 'test cases|tests passed' $d/ctest.log | tail -6
vs="base A C"
ops=layernorm_backward,rmsnorm_backward,residual_backward,softmax_backward
cols=32:65536,96,160,200,1000
[ $mode = check ] && for v in $vs; do
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols $cols --budget-ms 60 --format csv --out $d/check-$v.csv > /dev/null 2>&1; echo "check $v rc=$?"
  ./rfb-$v --op $ops --dtype fp16,fp32 --cols 100,200,255,300,511,1000 --misalign --budget-ms 60 --format csv --out $d/check-mis-$v.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"
done
[ $mode = time ] && for pass in 1 2 3; do for v in $vs; do
  ./rfb-$v --op ${ops%,softmax_backward} --dtype fp16,fp32 --cols $cols --variant fused,copy --no-check --budget-ms 120 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
done; done
python3 table.py $d $vs | tee $d/table.txt
tar czf $out/$d.tgz $d
