#!/bin/bash
# call79c.sh: on the device, M79 against V79b (V79a's warp draws on staged phased rows alone: every
# fp16 / fp32 kernel of it is M79's or V79a's, SASS for SASS), the residual block and its tee'd
# form in bf16, which call79a did not time, off the grid at 1001-100003 and on it at 40960 / 65536.
# Carry .device-carry/s79c (TYPES=bf16).
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=residual,residual_tee DTYPES=bf16 AL=40960,65536 MIS=1001,3001,6001,10001,40001,65001,100003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call79c $R/.device-carry/s79c M79 V79b
