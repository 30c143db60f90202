#!/bin/bash
# run6.sh: on the device, main (F, 0221a8f) against round 46's fp32 rows (X), the four ops fp32,
# at 32-8192 columns and the widths between (ab.sh), as call6/.
cd "$(dirname "$0")" && ./ab.sh call6 ../../../.device-carry/s48x F X \
  softmax,log_softmax,rmsnorm,layernorm fp32 \
  32:8192,72,96,136,160,168,200,264,320,384,400,448,600,640,648,1000,2056,2304,2560,2568,3000,3072,3080,4104,4608,5120,5128,6144,6152 \
  33,97,161,321,641,2561,4105,6145,10249
