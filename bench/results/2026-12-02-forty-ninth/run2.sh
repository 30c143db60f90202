#!/bin/bash
# run2.sh CARRY: on the device, main's pipelines (PM) against the change (PG: a warp takes one copy
# of the ops' loops), fp16, at 32-262144 columns and widths off the rows' grain
# (../2026-12-02-forty-eighth/ab.sh), as call5/; CARRY the two builds gzipped (rfb-PM, rfb-PG).
cd "$(dirname "$0")/../2026-12-02-forty-eighth" && ./ab.sh s49-call5 "$1" PM PG \
  attention,residual,residual_tee,layernorm_fp8 fp16 \
  32:262144,200,224,456,776,1000,2568,3080,6152,7176,8200,16392 \
  33,201,1000,3081,6153,10249
