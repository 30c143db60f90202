#!/bin/bash
# call75c.sh: on the device, the GPU suites built with V105 (gpu.phased_rows with 215001 columns on
# the 229376-column rows for phased plans alone, gpu.random_differential_softmax and _log_softmax;
# build/device-slim, stripped) carried in .device-carry/t75c/suites, under ctest by
# ../2026-12-06-seventy-third/call73s.sh (log ctest75c.log); then main's kernels (M76) against V105
# (the tree committed with it: softmax's 229376-column row for phased plans alone staged
# persistent, log-softmax's read straight) at the moved widths and controls, through
# ../2026-12-02-fifty-fourth/run1.sh; and V106 (layernorm) against V105. Carry .device-carry/t75c.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/t75c
JOBS=6 SUITES=$C/suites LOG=ctest75c bash ../2026-12-06-seventy-third/call73s.sh
OPS=softmax,log_softmax DTYPES=fp16,bf16 AL=65536,229376 MIS=190001,200003,215001,229375,240001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call75c-sm $C M76 V105
# V106: layernorm's phased kernels at 40968-81927 under three blocks an SM, against main (V105).
OPS=layernorm DTYPES=fp16,bf16 AL=49152,81920 MIS=41001,45001,49151,53001,65001,75001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call75c-ln $C V105 V106
