#!/bin/bash
# run10.sh: on the device, round 47's build (R, whose plans at these widths are main's) against
# round 48's rows (N), the four ops fp16 / bf16 at 32-1024 columns and the widths between
# (../2026-12-02-forty-eighth/ab.sh), as call10/.
cd "$(dirname "$0")/../2026-12-02-forty-eighth" && ./ab.sh s49-call10 ../../../.device-carry/s49n R N \
  softmax,log_softmax,rmsnorm,layernorm fp16,bf16 \
  32:1024,72,96,100,112,120,136,160,192,200,224,240,264 \
  33,100,113,201,241
