#!/bin/bash
# callS.sh: on either card, carrying .device-carry/s71: the GPU suites that run the rows c543119
# changed (build/device-slim at c543119, the device preset for sm_90 SASS), then callV60.sh's runs
# (V59 against M, then M against V57 and V60) from .device-carry/s70's binaries, linked here.
# $OUT/suites-c543119.tgz, $OUT/callV59.tgz, $OUT/callV60.tgz.
cd "$(dirname "$0")"; S=$PWD/../../../.device-carry/s71; mkdir -p /tmp/suites2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in gpu_bad_input gpu_cluster_engine gpu_sized_blocks gpu_phased_rows gpu_norm_shapes_layernorm \
         gpu_softmax_shapes gpu_random_differential_log_softmax; do
  start=$(date +%s); timeout 150 $S/$s > /tmp/suites2/$s.log 2>&1; rc=$?
  echo "$s rc=$rc $(($(date +%s) - start)) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites2/$s.log | tr '\n' ' ')"
done
tar czf $OUT/suites-c543119.tgz -C /tmp suites2
bash callV60.sh
