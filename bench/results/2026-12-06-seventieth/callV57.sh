#!/bin/bash
# callV57.sh: on an H100 (or an H200: every cell is still M against V57 in the same run), carrying
# .device-carry/s70: rfb-M (main at e285f24: the sixty-ninth session's rfb-V55, the same code),
# rfb-V57 (../2026-12-05-sixty-seventh/prepare-variants.sh V57 over main's tree with
# v57-h100-rows.diff applied, in /work/var/s67/V57), rfb-V58 (the same over
# v58-layernorm-32768.diff: layernorm's 16-bit 32768-column row as round 51's 8 x 256 in 2, held) and the three GPU suites whose assertions V55
# changed (gpu_bad_input, gpu_norm_shapes_layernorm, gpu_sized_blocks; build/device-slim, the device
# preset for sm_90 SASS). Runs the suites, then M against V57, fp16 and bf16, softmax and
# log-softmax, every result checked against unfused first, two passes interleaved
# (../2026-12-02-fifty-fourth/run1.sh); then M against V58, layernorm fp16 and bf16.
# $OUT/suites.tgz, $OUT/callV57.tgz, $OUT/callV58.tgz.
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
OPS=layernorm DTYPES=fp16,bf16 PASSES=2 AL=16384,20480,24576,28680,30720,32768,40960 \
  MIS=22001,30001,32767 bash ../2026-12-02-fifty-fourth/run1.sh callV58 $C M V58
# V59 (V57 and the rows for devices of wide memory at 114688 columns, which an H100 takes too, one
# cluster a row tile instead of persistent): where it differs from V57, against M.
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 AL=98312,106496,114688,131072 \
  MIS=100003,106001,114687 bash ../2026-12-02-fifty-fourth/run1.sh callV59 $C M V59
