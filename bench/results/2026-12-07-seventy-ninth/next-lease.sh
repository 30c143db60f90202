#!/bin/bash
# next-lease.sh: what this session left for the next lease, on an H100: call79c.sh (M79 / V79b in
# bf16: V79c's 13 bf16 kernels at the cells call79b timed in fp16), then ncu of main's residual
# block (V79e: main at ebd698c, fp16) off the grid at 40001 / 100003 against the grid at 40960 /
# 98304, and its tee'd form at 40001, through ../2026-12-05-sixty-eighth/callP.sh (sections, stall
# reasons, DRAM bytes, SASS source page): where the 0.20-0.25 of a copy the block loses off the
# grid goes. Carry .device-carry/s79c and .device-carry/s79e.
cd "$(dirname "$0")"; R=$PWD/../../..
bash call79c.sh
BIN=$R/.device-carry/s79e/rfb-V79e \
  CASES="residual:fp16:40960 residual:fp16:40001:m residual:fp16:98304 residual:fp16:100003:m residual_tee:fp16:40001:m" \
  bash ../2026-12-05-sixty-eighth/callP.sh pipelines
