#!/bin/bash
# call71i.sh: on either card, carrying .device-carry/s81: the GPU suites that run the rows this
# session changed (build/device-slim at c7ac06f, the device preset for sm_90 SASS, stripped), one
# line each. $OUT/suites-c7ac06f.tgz.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s81
mkdir -p /tmp/suites; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in gpu_sized_blocks gpu_random_differential_log_softmax gpu_norm_shapes_rmsnorm \
         gpu_softmax_shapes gpu_phased_rows; do
  start=$(date +%s); timeout 200 $C/$s > /tmp/suites/$s.log 2>&1; rc=$?
  echo "$s rc=$rc $(($(date +%s) - start)) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites/$s.log | tr '\n' ' ')"
done
tar czf $OUT/suites-c7ac06f.tgz -C /tmp suites
