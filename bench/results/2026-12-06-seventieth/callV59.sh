#!/bin/bash
# callV59.sh: callV57.sh's last step alone (M against V59 at 98312-131072 columns), for the card that
# did not run it there (an H200), carrying .device-carry/s70.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s70
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 AL=98312,106496,114688,131072 \
  MIS=100003,106001,114687 bash ../2026-12-02-fifty-fourth/run1.sh callV59 $C M V59
