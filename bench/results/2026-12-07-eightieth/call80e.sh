#!/bin/bash
# call80e.sh: on the device, F80d (main at 82c2db7) against V80f (a row read back at 131072 columns,
# 8 x 256 in 8, for both residual blocks' phased plans alone) and V80g (one at 114688, 7 x 512 in
# 4), both with the warp's draws on staged phased rows of up to eight packs, fp16 and bf16, off the
# grid at 100003-200003 and on it at 131072. Carry .device-carry/s80f.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=131072 MIS=100003,110001,120001,131071,140001,200003 \
  PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call80e $R/.device-carry/s80f F80d V80f V80g
