#!/bin/bash
# call80b.sh: on the device, F80 (main at 87dfba8) against V80c (a row read back at 49152 columns in
# both residual tables, the 98304-column row for the tee'd block's phased plans), fp16 and bf16,
# then ncu of F80's residual block at 40001 / 65001 off the grid against 40960 / 65536 on it, then
# the GPU suites built at 87dfba8 (.device-carry/t80: gpu.phased_rows' residual block case with
# 65001 / 90001 off the grid, norm_fused, determinism, random_differential_layernorm,
# family_dropout, dropout_decisions). Carry .device-carry/s80 and .device-carry/t80.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=40960,45056,49152,65536 \
  MIS=40001,41001,45001,49001,50001,65001,75001,90001,100003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call80b $R/.device-carry/s80 F80 V80c
BIN=$R/.device-carry/s80/rfb-F80 \
  CASES="residual:fp16:40960 residual:fp16:40001:m residual:fp16:65536 residual:fp16:65001:m" \
  bash ../2026-12-05-sixty-eighth/callP.sh pipelines
SUITES=$R/.device-carry/t80 LOG=ctest80 bash ../2026-12-07-seventy-seventh/call77s.sh
