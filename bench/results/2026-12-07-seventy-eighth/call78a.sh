#!/bin/bash
# call78a.sh: on an H100, first gpu.phased_rows' residual block case as the seventy-seventh session
# left it unrun (../2026-12-07-seventy-seventh/call77s.sh, carried .device-carry/t77d), then main (M78) against V78a and V78b (the
# residual block's rows read back at 40960 and 98304 columns, two shapes each), the residual block
# and its tee'd form in fp16 and bf16, through ../2026-12-02-fifty-fourth/run1.sh. Carry
# .device-carry/s78 and .device-carry/t77d.
cd "$(dirname "$0")"
SUITES=$PWD/../../../.device-carry/t77d LOG=ctest77d bash ../2026-12-07-seventy-seventh/call77s.sh
OPS=residual,residual_tee DTYPES=${DTYPES:-fp16,bf16} \
  AL=${AL:-32768,36864,40960,49152,65536,81920,98304,131072} \
  MIS=${MIS:-40001,65001,100003} \
  bash ../2026-12-02-fifty-fourth/run1.sh call78a $PWD/../../../.device-carry/s78 M78 V78a V78b
