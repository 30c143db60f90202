#!/bin/bash
# run2.sh: on the device, main (M, 3bd2de5) against round 44's rows (W), softmax, log-softmax,
# rmsnorm and layernorm fp16 / bf16, at 32-16384 columns and the widths between the powers of two
# to 6152 (ab.sh), as call2/.
cd "$(dirname "$0")" && ./ab.sh call2 ../../../.device-carry/s48 M W \
  softmax,log_softmax,rmsnorm,layernorm fp16,bf16 \
  32:16384,72,96,160,192,200,264,320,384,448,600,640,648,1000,2056,2304,2560,2568,3000,3072,3080,4104,4608,5120,5128,5632,6144,6152 \
  33,100,300,1000,2057,4097,5121,10249
