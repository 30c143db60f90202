#!/bin/bash
# callV57.sh: on an H100 (or an H200: every cell is still M against V57 in the same run), carrying
# .device-carry/s70: rfb-M (main at e285f24: the sixty-ninth session's rfb-V55, the same code),
# rfb-V57 (../2026-12-05-sixty-seventh/prepare-variants.sh V57 over main's tree with
# v57-h100-rows.diff applied, in /work/var/s67/V57) and the three GPU suites whose assertions V55
# changed (gpu_bad_input, gpu_norm_shapes_layernorm, gpu_sized_blocks; build/device-slim, the device
# preset for sm_90 SASS). Runs the suites, then M against V57, fp16 and bf16, softmax and
# log-softmax, every result checked against unfused first, two passes interleaved
# (../2026-12-02-fifty-fourth/run1.sh). $OUT/suites.tgz, $OUT/callV57.tgz.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s70; mkdir -p /tmp/suites
for s in gpu_bad_input gpu_norm_shapes_layernorm gpu_sized_blocks; do
  start=$(date +%s); timeout 200 $C/$s > /tmp/suites/$s.log 2>&1; rc=$?
  echo "$s rc=$rc $(($(date +%s) - start)) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites/$s.log | tr '\n' ' ')"
done
tar czf $OUT/suites.tgz -C /tmp suites
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 \
  AL=16,32,48,64,72,96,128,136,160,192,200,256,320,384,448,456,512,49152,57352,65536,81928,98304,114688,131072,131080,163840,163848,196608,262144 \
  MIS=300,60001,90001,150001,190001 \
  bash ../2026-12-02-fifty-fourth/run1.sh callV57 $C M V57
