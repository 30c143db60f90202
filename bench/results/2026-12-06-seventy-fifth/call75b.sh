#!/bin/bash
# call75b.sh: on the device, main's kernels for softmax and log-softmax (M76: main at c99dfc4, the
# same kernels for those ops as at 9823b59) against V101 (a 229376-column row for phased plans
# alone in softmax's table, which log-softmax's shares: 7 x 256 in 16 under three, padded,
# exchanging once), V102 (V101, log-softmax's under two) and V103 (the same shape staged persistent
# under two), through ../2026-12-02-fifty-fourth/run1.sh; then ncu (../2026-12-05-sixty-eighth/
# callP.sh) of layernorm's kernels on main (V98's build) aligned at 49152 and one element off at
# 49151 and 65001, and rmsnorm's one element off at 49151, beside them. Carry .device-carry/t75b.
cd "$(dirname "$0")"; R=$PWD/../../..; C=$R/.device-carry/t75b
OPS=softmax,log_softmax DTYPES=fp16,bf16 AL=229376,262144 \
MIS=190001,200003,210001,215001,229375,240001,262143 \
  bash ../2026-12-02-fifty-fourth/run1.sh call75b-sm $C M76 V101 V102 V103
BIN=$C/rfb-V98 CASES="layernorm:fp16:49152 layernorm:fp16:49151:m layernorm:fp16:65001:m rmsnorm:fp16:49151:m" \
  bash ../2026-12-05-sixty-eighth/callP.sh
