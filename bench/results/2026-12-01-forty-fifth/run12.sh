#!/bin/bash
# run12.sh DIR: on the device, the last call of the session's device time: main (M) against the
# tee'd and plain residual block's wide rows (W5), fp16 slim builds, checked against unfused and
# timed interleaved (three passes); then gpu_norm_fused built from W5's tree, under ctest.
cd "$(dirname "$0")"
C=../../../.device-carry/s45d; d=$1; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op residual,residual_tee --dtype fp16"
cols=32:262144,2056,3000,16392,20480,24584,28672,40000,49152,81920,98312,114688
$C/rfb-W5-p16 $op --cols $cols --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-W5.csv > $d/check-W5.log 2>&1; echo "check rc=$?"
$C/rfb-W5-p16 $op --cols 33,4097,16393,40001,100003 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-W5.csv > $d/check-mis-W5.log 2>&1; echo "check misaligned rc=$?"
tail -n1 $d/check-W5.log $d/check-mis-W5.log
for pass in 1 2 3; do for v in M W5; do
  $C/rfb-$v-p16 $op --cols $cols --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
done; done
mkdir -p /tmp/ct12 && echo "add_test(gpu.norm_fused \"$(cd $C && pwd)/gpu_norm_fused\")" > /tmp/ct12/CTestTestfile.cmake
ctest --test-dir /tmp/ct12 --output-on-failure 2>&1 | tee $d/ctest.log | tail -4
tar czf $OUT/$d.tgz $d
python3 table.py $d M W5 | grep -E '^op| (16384|16392|20480|24584|28672|32768|40000|49152|65536|81920|98312|114688|131072|262144) '
