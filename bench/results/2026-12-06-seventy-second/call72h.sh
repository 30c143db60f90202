#!/bin/bash
# call72h.sh: on the device, carrying .device-carry/s90: the GPU suites that run the rows this
# session changed (build/device-slim at a837dd3: the layernorm pass-by and the helper,
# the device preset for sm_90 SASS, stripped), one line each. $OUT/suites72b.tgz.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s90
mkdir -p /tmp/suites; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in gpu_phased_rows; do
  start=$(date +%s); timeout 400 $C/$s > /tmp/suites/$s.log 2>&1; rc=$?
  echo "$s rc=$rc $(($(date +%s) - start)) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites/$s.log | tr '\n' ' ')"
done
tar czf $OUT/suites72b.tgz -C /tmp suites
