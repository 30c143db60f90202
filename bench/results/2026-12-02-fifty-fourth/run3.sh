#!/bin/bash
# run3.sh CARRY bf16|backward: on the device, by run1.sh (checked against unfused, then timed
# interleaved, three passes): bf16, the forward ops and pipelines of CARRY/rfb-Mb against rfb-H5b
# (call8.tgz under $OUT); backward, the backward ops in fp16 of CARRY/rfb-Mk against rfb-H5k
# (call9.tgz).
cd "$(dirname "$0")"; C=$1
if [ "$2" = bf16 ]; then PASSES=3 DTYPES=bf16 ./run1.sh call8 $C Mb H5b 2>&1 | grep -v "^pass"; fi
if [ "$2" = backward ]; then
  PASSES=3 OPS=layernorm_backward,rmsnorm_backward,softmax_backward,residual_backward ./run1.sh call9 $C Mk H5k 2>&1 | grep -v "^pass"
fi
