#!/bin/bash
# call75d.sh: on an H200, main's kernels before V105 (M76) against V105, log-softmax aligned at the
# widths where an H200 now plans from the H100's 65536-column row (round 38's row for devices of wide
# memory dropped), with a control each side, through ../2026-12-02-fifty-fourth/run1.sh. Carry
# .device-carry/t75d.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/t75d
# An H100 plans these widths as before V105: nothing to time there.
nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || { nvidia-smi -L; exit 3; }
OPS=log_softmax DTYPES=fp16,bf16 AL=49152,57352,61440,65536,81920 MIS=61001,215001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call75d-ls $C M76 V105
