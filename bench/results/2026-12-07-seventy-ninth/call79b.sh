#!/bin/bash
# call79b.sh: call79a.sh for a lease with too little device time for all of it: M79 / V79a, then
# the suites; the seventy-eighth session's A/B (V78c / V78d) left out. Carry .device-carry/s79 and
# .device-carry/t79.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=residual,residual_tee DTYPES=fp16,fp32 AL=40960,65536 MIS=1001,3001,6001,10001,40001,65001,100003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call79a $R/.device-carry/s79 M79 V79a
SUITES=$R/.device-carry/t79 LOG=ctest79 bash ../2026-12-07-seventy-seventh/call77s.sh
