#!/bin/bash
# call81a.sh: on the device, probe/traffic (carry .device-carry/p81): the residual block's traffic as
# element-wise kernels against a copy; then F80d / V81a / V81b (carry .device-carry/s81), the residual
# block's rows read back in one pass about their first pack (V81a: unphased rows; V81b: phased too),
# on the grid at 32768-131072 and one element off at 33001-90001; then the eightieth session's call80e
# (F80d / V80f / V80g), its builds in the same folder.
cd "$(dirname "$0")"; R=$PWD/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date +%T
$R/.device-carry/p81/traffic | tee $OUT/traffic.csv
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=32768,40960,49152,65536,98304,131072 MIS=33001,40001,45001,65001,90001 \
  PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call81b $R/.device-carry/s81 F80d V81a V81b 2>&1 | tail -40
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=131072 MIS=100003,110001,120001,131071,140001,200003 \
  PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call80e $R/.device-carry/s81 F80d V80f V80g 2>&1 | tail -40
