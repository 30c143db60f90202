#!/bin/bash
# On the device: the A/B of the kept change (checked, two passes), then the GPU suites.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/device.txt
if [ -x ../ab36/ab_final ]; then
  (cd ../ab36 && bash run.sh base final) > $OUT/call4-final.txt 2>&1
  grep -v "^layernorm_fp8 .*FAILED\|^layernorm .*ok |" $OUT/call4-final.txt | tail -80
  exit 0
fi
for f in gpu_*.xz; do xz -d -T4 "$f"; done
chmod +x gpu_*
for t in gpu_*; do
  [ -x "$t" ] || continue
  start=$(date +%s)
  ./$t > $OUT/$t.txt 2>&1; rc=$?
  echo "$t rc=$rc $(( $(date +%s) - start ))s $(grep -E '^\[doctest\] (test cases|assertions)' $OUT/$t.txt | tr -s ' ' | tr '\n' ' ')"
done
(cd $OUT && tar czf suites.tgz gpu_*.txt && rm -f gpu_*.txt)
