#!/bin/bash
# run11.sh: on the device, round 47's build (R, main's plans at these widths) against round 48's
# two rows kept (N2: softmax 193-256, log-softmax 97-128), the four ops fp16 / bf16 at 32-1024
# columns and the widths between (../2026-12-02-forty-eighth/ab.sh), as call11/.
cd "$(dirname "$0")/../2026-12-02-forty-eighth" && ./ab.sh s49-call11 ../../../.device-carry/s49n2 R N2 \
  softmax,log_softmax,rmsnorm,layernorm fp16,bf16 \
  32:1024,104,112,120,136,200,208,216,224,232,240,248,264 \
  33,100,113,201,241
