#!/bin/bash
# call77a.sh: on an H100, main (M77) against K77 (rows read back from staging kept as the chain's
# values) and R77 (K77 and held rows for the residual block), the residual block and its tee'd
# form in fp16, bf16 and fp32, through ../2026-12-02-fifty-fourth/run1.sh. Carry .device-carry/s77.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s77
OPS=residual,residual_tee DTYPES=${DTYPES:-fp16,bf16,fp32} \
  AL=${AL:-8192,16384,24576,32768,40960,65536,131072,262144} \
  MIS=${MIS:-20001,40001,65001,100003,200003} \
  bash ../2026-12-02-fifty-fourth/run1.sh call77a $C M77 K77 R77
