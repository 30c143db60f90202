#!/bin/bash
# callS2.sh: on either card, carrying .device-carry/s72: gpu_softmax_shapes and gpu_phased_rows built
# at dbae34c (V60's 65536-column log-softmax row; build/device-slim). $OUT/suites-dbae34c.tgz.
cd "$(dirname "$0")"; S=$PWD/../../../.device-carry/s72; mkdir -p /tmp/suites3
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in gpu_softmax_shapes gpu_phased_rows; do
  start=$(date +%s); timeout 250 $S/$s > /tmp/suites3/$s.log 2>&1; rc=$?
  echo "$s rc=$rc $(($(date +%s) - start)) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites3/$s.log | tr '\n' ' ')"
done
tar czf $OUT/suites-dbae34c.tgz -C /tmp suites3
