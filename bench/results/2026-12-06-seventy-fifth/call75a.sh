#!/bin/bash
# call75a.sh: on the device, main's kernels (M76: main at c99dfc4) against V98 (layernorm 16-bit's
# phased plans at 40968-49159 on a row for them alone, 6 x 256 in 4 staged persistent under two,
# gamma and beta held), V99 (V98 and a 65536-column one, 4 x 256 in 8 under one, before the
# 65536-column row, now unphased) and V100 (rmsnorm's 114688-column row's phased plans on 7 x 256 in
# 8 staged persistent under two, and a 229376-column row for phased plans alone, 7 x 256 in 16),
# through ../2026-12-02-fifty-fourth/run1.sh. Carry .device-carry/t75a.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/t75a
OPS=layernorm DTYPES=fp16,bf16 AL=40960,49152,65536 \
MIS=40001,41001,45001,49151,50001,53001,57001,61001,65001,70001,82001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call75a-ln $C M76 V98 V99
OPS=rmsnorm DTYPES=fp16,bf16 AL=114688,229376,262144 \
MIS=98303,100003,106001,114687,120001,196613,200003,215001,229375,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call75a-rn $C M76 V100
