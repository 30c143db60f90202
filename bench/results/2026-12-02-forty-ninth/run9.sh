#!/bin/bash
# run9.sh: on the device, the vote asked once a kernel (G2: pipelines and ops fp16) against the
# vote asked in each loop (GP: the pipelines, 260a1b6), the pipelines fp16
# (../2026-12-02-forty-eighth/ab.sh), as call9/ (main before the vote, MP: call5, against GP).
cd "$(dirname "$0")/../2026-12-02-forty-eighth" && ./ab.sh s49-call9 ../../../.device-carry/s49c GP G2 \
  attention,residual,residual_tee,layernorm_fp8 fp16 \
  32:262144,200,224,456,776,1000,2568,3080,6152,7176,8200,16392 \
  33,201,1000,3081,6153,10249
