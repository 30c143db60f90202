#!/bin/bash
# call74a.sh: on the device, main's kernels (M74, main at ea6783f) against V94 (layernorm 16-bit:
# the 24576-column row's phased kernel, the forced-only 32768-column block row unsized), V95 (V94
# and the 98304-column row's phased kernel, the 2048-column row for wide memory dropped) and V92
# (log-softmax 16-bit: four rows for devices of wide memory dropped), through
# ../2026-12-02-fifty-fourth/run1.sh. On an H100 V92 plans as main (plan_dump); its cells here
# are controls. On an H200 they are the measurement. Carry .device-carry/t74.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/t74
OPS=layernorm DTYPES=fp16,bf16 AL=1024,2048,24576,32768,98304 \
MIS=18001,20489,22001,24001,24583,25001,30001,75001,82001,86001,90001,95001,98303,100003,120001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call74a-ln $C M74 V94 V95
OPS=log_softmax DTYPES=fp16,bf16 AL=22528,24576,90112,98304,147456,163840,180224,196608 \
MIS=22001,24001,150001,170001,190001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call74a-ls $C M74 V92
