#!/bin/bash
# call76a.sh: on the device, the A/Bs of bench/NOTES.md's seventy-sixth entry through
# ../2026-12-02-fifty-fourth/run1.sh (every build checked against unfused first, then two passes
# interleaved, fp16 and bf16, aligned and one element off): layernorm under main (M, b020a48's
# kernels), VL (its centred rows: one running sum of the deviations across the packs, the
# divisions made once), VL2 (VL, gamma and beta kept across rows on the aligned rows read back) and
# VW (VL, the cluster exchange waited by warp 0 alone); then the other ops' cluster rows under M
# and VW. Carry .device-carry/t76a (rfb-M, rfb-VL, rfb-VL2, rfb-VW).
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/t76a
OPS=layernorm DTYPES=fp16,bf16 AL=32768,49152,65536,131072,262144 MIS=41001,49151,65001,100003,200003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call76a-ln $C M VL VL2 VW
OPS=softmax,log_softmax,rmsnorm DTYPES=fp16,bf16 AL=65536,262144 MIS=100003 \
  bash ../2026-12-02-fifty-fourth/run1.sh call76a-ops $C M VW
