#!/bin/bash
# call80c.sh: on the device, F80c (main at 2f142de) against V80d (the warp's draws on staged phased
# rows in blocks of up to 1024 threads: the 1024-thread block row that both residual blocks take
# one element off at 16385-32768 columns) and V80e (that block row passed by for phased plans, the
# 32768-column cluster row read back with its phased kernel), fp16 and bf16, off the grid at
# 16393-32767 and on it at 16384 / 32768; then gpu.phased_rows' residual block case built after
# 2f142de (45001 one element off and 49152 on the grid added). Carry .device-carry/s80d and t80b.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=16384,32768 MIS=16393,20001,24577,28001,32767 \
  bash ../2026-12-02-fifty-fourth/run1.sh call80c $R/.device-carry/s80d F80c V80d V80e
SUITES=$R/.device-carry/t80b LOG=ctest80b bash ../2026-12-07-seventy-seventh/call77s.sh
