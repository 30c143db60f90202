#!/bin/bash
# call79a.sh: on the device, main (M79, c0d5761) against V79a (dropout's decisions on phased rows
# drawn by the warp), the residual block and its tee'd form, fp16 and fp32 (fp32's kernels
# unchanged: the control), off the grid at 1001-100003 and on it at 40960 / 65536; the
# seventy-eighth session's unrun A/B (M78 / F78 / V78c / V78d, .device-carry/s78b), both through
# ../2026-12-02-fifty-fourth/run1.sh; then the GPU suites built with V79a on main's tables
# (.device-carry/t79 through ../2026-12-07-seventy-seventh/call77s.sh: gpu.dropout_warp_draws,
# gpu.phased_rows' residual block case, on the grid at 40960 and 98304 too, gpu.dropout_decisions,
# gpu.family_dropout, gpu.norm_fused, gpu.determinism, gpu.random_differential_layernorm).
# Carry .device-carry/s79, .device-carry/t79, .device-carry/s78b.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=residual,residual_tee DTYPES=fp16,fp32 AL=40960,65536 MIS=1001,3001,6001,10001,40001,65001,100003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call79a $R/.device-carry/s79 M79 V79a
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=32768,40960,49152,65536,98304,131072 MIS=65001,100003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call78b $R/.device-carry/s78b M78 F78 V78c V78d
SUITES=$R/.device-carry/t79 LOG=ctest79 bash ../2026-12-07-seventy-seventh/call77s.sh
