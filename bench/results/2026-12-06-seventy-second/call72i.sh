#!/bin/bash
# call72i.sh: on the device, carrying .device-carry/s91: gpu_phased_rows' cases this session added
# or fixed (the norms' copies at each phase or in place, gamma one element in as x; log-softmax on
# staged persistent clusters, its plan checked), built from main after ddfdb4c. $OUT/suites72c.tgz.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s91
mkdir -p /tmp/suites; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
s=gpu_phased_rows; start=$(date +%s)
timeout 300 $C/$s -tc="*from copies at each phase or in place*,*on staged persistent clusters*" \
  > /tmp/suites/$s.log 2>&1; rc=$?
echo "$s rc=$rc $(($(date +%s) - start)) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites/$s.log | tr '\n' ' ')"
tar czf $OUT/suites72c.tgz -C /tmp suites
