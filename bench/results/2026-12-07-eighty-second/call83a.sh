#!/bin/bash
# call83a.sh: for the next lease. gpu.phased_rows whole, built from main at 614338d (release, SASS
# sm_90: carry .device-carry/t83), so that V82c's rows (7cedee2) run under the suite and the suite's
# time is known; then main (V82c's kernels, .device-carry/s82c/rfb-V82c) against V83a
# (.device-carry/s83/rfb-V83a: a row read back for the residual blocks' phased plans at 262144
# columns, 4 x 512 in clusters of sixteen) one element off at 229377-262143 and on the grid.
cd "$(dirname "$0")"; R=$PWD/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date +%T
SUITES=$R/.device-carry/t83 LOG=ctest83 PHASED_CASES='*' bash ../2026-12-07-seventy-seventh/call77s.sh
date +%T
mkdir -p /tmp/c83 && cp $R/.device-carry/s82c/rfb-V82c $R/.device-carry/s83/rfb-V83a /tmp/c83/
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=262144 MIS=229377,240001,250001,262143 \
  PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call83a /tmp/c83 V82c V83a 2>&1 | tail -30
