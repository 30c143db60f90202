#!/bin/bash
# callT.sh: on the device, with .device-carry/s63t carried: the GPU suites built on the development
# machine from main (build-tests.sh), each run directly (as ctest would: exit 77 = no GPU, skipped),
# their doctest summaries and exit codes into $OUT/callT.txt.
R=$(cd "$(dirname "$0")/../../.." && pwd); T=$R/.device-carry/s63t
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/callT.txt
cat $T/built-from.txt | tee -a $OUT/callT.txt
status=0
for t in $T/gpu_*; do
  start=$SECONDS
  $t > /tmp/$(basename $t).log 2>&1; rc=$?
  ((rc == 0)) || status=1
  echo "$(basename $t): exit $rc in $((SECONDS - start)) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/$(basename $t).log | tr '\n' ' ')" |
    tee -a $OUT/callT.txt
  ((rc == 0)) || tail -30 /tmp/$(basename $t).log | tee -a $OUT/callT.txt
done
exit $status
