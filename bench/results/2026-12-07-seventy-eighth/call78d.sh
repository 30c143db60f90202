#!/bin/bash
# call78d.sh: call78c.sh for a lease with too little device time for gpu.phased_rows' whole residual
# block case (about five minutes): the A/B, then the suites carried in .device-carry/t78b, whose
# gpu.phased_rows runs that case on the grid at 40960 and 98304 columns alone
# (phased-rows-new-widths-only.diff on 39e7649: the rows this session added; the case's other
# widths run kernels the seventy-seventh session's ctest77d passed). Carry .device-carry/s78b and
# .device-carry/t78b.
cd "$(dirname "$0")"
OPS=residual,residual_tee DTYPES=${DTYPES:-fp16,bf16} \
  AL=${AL:-32768,40960,49152,65536,98304,131072} MIS=${MIS:-65001,100003} \
  bash ../2026-12-02-fifty-fourth/run1.sh call78b $PWD/../../../.device-carry/s78b M78 F78 V78c V78d
SUITES=$PWD/../../../.device-carry/t78b LOG=ctest78 bash ../2026-12-07-seventy-seventh/call77s.sh
