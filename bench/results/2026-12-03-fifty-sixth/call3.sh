#!/bin/bash
# call3.sh: on the device, (1) single elements of main (M) and of the sized row from 1025 columns
# (N2, the final tree's) [single.sh]; (2) rowfuse-bench, main (M / Mb) against the final tree (F / Fb), fp16
# then bf16, two passes each, every build checked against unfused first: log-softmax where its H200
# rows were dropped (aligned) or gained phased kernels (off the grid), softmax's and layernorm's
# new phased rows off the grid, controls aligned.
cd "$(dirname "$0")"; R=$(cd ../../.. && pwd)
PACK=pack3.txz bash single.sh call3-single M N2
b=$(mktemp -d) && tar xf $R/.device-carry/s56/pack3.txz -C $b
OPS=log_softmax AL=4096,8200,12288,16384,22528,24576,98304,180224,212992,229376 \
  MIS=601,4601,5801,90001 PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call3-log $b M F
OPS=softmax,rmsnorm AL=3000,24576,57344 MIS=2301,11001,22001,53001 PASSES=2 \
  bash ../2026-12-02-fifty-fourth/run1.sh call3-softmax $b M F
OPS=layernorm AL=640,6144 MIS=601,2301,5801 PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call3-layernorm $b M F
OPS=softmax,log_softmax,layernorm DTYPES=bf16 AL=16384,24576 MIS=601,4601,5801,22001,53001 PASSES=2 \
  bash ../2026-12-02-fifty-fourth/run1.sh call3-bf16 $b Mb Fb
