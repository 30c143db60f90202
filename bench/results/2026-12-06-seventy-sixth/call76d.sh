#!/bin/bash
# call76d.sh: on an H100, main before this session's layernorm change (M, b020a48's kernels)
# against main after it (VL2b: VL, and VL2 on clusters of four blocks or more; main's kernels
# from 0cc51cf), layernorm fp16 and bf16, through ../2026-12-02-fifty-fourth/run1.sh. Carry
# .device-carry/t76d.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/t76d
OPS=layernorm DTYPES=fp16,bf16 AL=32768,49152,65536,131072,163840,262144 MIS=41001,49151,65001,100003,200003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call76d-ln $C M VL2b
