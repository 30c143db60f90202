#!/bin/bash
# callV60.sh: on either card, carrying .device-carry/s70: callV59.sh (M against V59), then M against
# V57 and V60 (log-softmax's 16-bit rows at 65536 and 196608 columns in V57's form, but with their
# phased kernels over padded places too: padded_phased; v60-padded-phased.diff) at those rows'
# widths, aligned and one element off. $OUT/callV59.tgz, $OUT/callV60.tgz.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s70
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash callV59.sh
OPS=log_softmax DTYPES=fp16,bf16 PASSES=2 AL=49152,57352,65536,163848,180224,196608,262144 \
  MIS=53001,60001,65535,170001,190001,196607 bash ../2026-12-02-fifty-fourth/run1.sh callV60 $C M V57 V60
