#!/bin/bash
# call72f.sh: on the device, carrying .device-carry/s88: the GPU suites that run the rows this
# session changed (build/device-slim at main's kernels after edef3fa with phased_rows' new cases,
# the device preset for sm_90 SASS, stripped), one line each. $OUT/suites72.tgz.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s88
mkdir -p /tmp/suites; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in gpu_phased_rows gpu_norm_shapes_rmsnorm gpu_norm_shapes_layernorm; do
  start=$(date +%s); timeout 400 $C/$s > /tmp/suites/$s.log 2>&1; rc=$?
  echo "$s rc=$rc $(($(date +%s) - start)) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites/$s.log | tr '\n' ' ')"
done
tar czf $OUT/suites72.tgz -C /tmp suites
