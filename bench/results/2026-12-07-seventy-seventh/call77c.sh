#!/bin/bash
# call77c.sh: on an H100, (0) gpu.determinism and gpu.random_differential_layernorm built at main
# (0185909: engine::keeps_chain_values and the residual block's rows read back), carried in
# .device-carry/t77c, under ctest; (1) main (M77b) against T77 (the tee'd block's 16-bit
# 131072-column row and the residual block's 262144-column row read back from staging, unphased
# after rows for phased plans alone that keep main's), fp16. Carry .device-carry/s77c and t77c.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s77c
SUITES=$PWD/../../../.device-carry/t77c LOG=ctest77c bash call77s.sh | grep -v "^[12]: "
OPS=residual,residual_tee DTYPES=fp16 AL=65536,98304,131072,196608,262144 MIS=100003,200003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call77c $C M77b T77
