#!/bin/bash
# On the device: ncu (--set full) on main's tables (rfb-F), one launch each: rmsnorm backward fp16
# at 64 and 1024 columns, layernorm backward fp16 at 256, where QuACK leads or the rows changed.
cd "$(dirname "$0")"
out=${OUT:-.}
d=call3; mkdir -p $d
for c in "rmsnorm_backward 64" "rmsnorm_backward 1024" "layernorm_backward 256"; do
  set -- $c
  ncu --set full -k regex:register_kernel --launch-count 1 ./rfb-F --op $1 --dtype fp16 --cols $2 \
    --variant fused --no-check --reps 1 --budget-ms 1 > $d/ncu-$1-$2.txt 2>&1
  echo "== $1 $2"; grep -E "register_kernel<|DRAM Throughput|Issue Slots Busy|Executed Instructions  |Achieved Occupancy|Registers Per|Warp Cycles Per Issued|Theoretical Occupancy|Duration" $d/ncu-$1-$2.txt | head -14
done
tar czf $out/call3.tgz $d
