#!/bin/bash
# run6.sh: on the device, main with the warp's vote (G) against round 47's rows (R), the four ops
# fp16 / bf16, at 32-262144 columns and the widths past 8192 and 16384 (../2026-12-02-forty-eighth/
# ab.sh), as call6/.
cd "$(dirname "$0")/../2026-12-02-forty-eighth" && ./ab.sh s49-call6 ../../../.device-carry/s49b G R \
  softmax,log_softmax,rmsnorm,layernorm fp16,bf16 \
  32:262144,8200,9216,10240,10248,12288,14336,16392,18432,20480,20488,24576 \
  33,1000,8201,10241,12289,16393,20481
