#!/bin/bash
# run2.sh: on the device, main (M: 16-bit; M32: fp32) against round 40's rows (W, W32), the ops
# alone, checked and timed three passes each (../2026-12-01-forty-fifth/ab2.sh) at the powers of
# two and the widths between them; call2-16/ and call2-32/ as tgz under $OUT.
cd "$(dirname "$0")/../2026-12-01-forty-fifth"
export CARRY=s47 OPS=softmax,log_softmax,rmsnorm
EXTRA=20488,22528,24576,24584,26624,28672,40968,45056,49152,49160,53248,57344,81928,90112,98304,98312,106496,114688,163848,180224,196608,196616,212992,229376 \
  DTYPES=fp16,bf16 ./ab2.sh M W call2-16
EXTRA=8200,9216,10240,10248,12288,14336,24584,28672,32776,36864,40960,49160,53248,57344,65544,73728,81920,98312,106496,114688,131080,147456,163840,196616,212992,229376 \
  DTYPES=fp32 ./ab2.sh M32 W32 call2-32
