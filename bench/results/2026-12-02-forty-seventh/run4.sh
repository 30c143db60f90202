#!/bin/bash
# run4.sh: on the device, row_shapes.cu round 42 (fp32 layernorm, .device-carry/r42) two passes,
# as call4/; then layernorm 16-bit, main (W: main with round 40's rows) against round 41's rows
# (WL), ../2026-12-01-forty-fifth/ab2.sh as call4-ln16/; both as tgz under $OUT.
cd "$(dirname "$0")"; C=../../../.device-carry/r42; d=call4; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for pass in 1 2; do $C/r4 > $d/time4-$pass.txt 2>&1; echo "r4 pass $pass rc=$? $(date +%T)"; done
tar czf $OUT/$d.tgz $d
cd ../2026-12-01-forty-fifth
CARRY=s47b OPS=layernorm DTYPES=fp16,bf16 \
  EXTRA=8200,9216,10240,10248,12288,14336,20488,22528,24576,24584,26624,28672,40968,45056,49152,81928,90112,98304 \
  ./ab2.sh W WL call4-ln16
