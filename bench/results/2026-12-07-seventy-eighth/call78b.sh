#!/bin/bash
# call78b.sh: on an H100, the GPU suites built with main's tables as this session leaves them
# (../2026-12-07-seventy-seventh/call77s.sh, carried .device-carry/t78: gpu.phased_rows' residual block case, now on the grid at
# 40960 and 98304 too, gpu.norm_fused, gpu.determinism, gpu.random_differential_layernorm), then
# main before this session (M78) against main's tables (F78) and V78c / V78d (the residual block's
# and its tee'd form's 65536- and 131072-column rows read back on more, smaller blocks: 2 x 512 in
# 8 / 16, 4 x 256 in 8 / 16, two blocks an SM), fp16 and bf16, through
# ../2026-12-02-fifty-fourth/run1.sh. Carry .device-carry/s78b and .device-carry/t78.
cd "$(dirname "$0")"
SUITES=$PWD/../../../.device-carry/t78 LOG=ctest78 bash ../2026-12-07-seventy-seventh/call77s.sh
OPS=residual,residual_tee DTYPES=${DTYPES:-fp16,bf16} \
  AL=${AL:-32768,40960,49152,65536,98304,131072} MIS=${MIS:-65001,100003} \
  bash ../2026-12-02-fifty-fourth/run1.sh call78b $PWD/../../../.device-carry/s78b M78 F78 V78c V78d
