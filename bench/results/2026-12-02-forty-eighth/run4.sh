#!/bin/bash
# run4.sh: on the device, round 44's rows (W, 686b4e7) against round 45's (W2), the four ops
# fp16 / bf16, at 32-8192 columns and the widths inside and past the new rows (ab.sh), as call4/.
cd "$(dirname "$0")" && ./ab.sh call4 ../../../.device-carry/s48 W W2 \
  softmax,log_softmax,rmsnorm,layernorm fp16,bf16 \
  32:8192,72,96,136,160,168,192,200,224,264,384,400,448,456,512,600,648,700,768,776,800,896,1000,1016,1024,6152,6656,7168,7176 \
  33,100,161,300,449,1000,1017,6153,10249
