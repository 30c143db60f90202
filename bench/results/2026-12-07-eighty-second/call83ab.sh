#!/bin/bash
# call83ab.sh: call83a.sh's A/B half (the suite, call83s.sh, in two calls of its own; README.md
# gives the order): main (V82c's kernels, .device-carry/s82c/rfb-V82c) against V83a
# (.device-carry/s83/rfb-V83a) one element off at 229377-262143 and on the grid.
cd "$(dirname "$0")"; R=$PWD/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date +%T
mkdir -p /tmp/c83 && cp $R/.device-carry/s82c/rfb-V82c $R/.device-carry/s83/rfb-V83a /tmp/c83/
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=262144 MIS=229377,240001,250001,262143 \
  PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call83a /tmp/c83 V82c V83a 2>&1 | tail -40
date +%T
