#!/bin/bash
# call6.sh: on the device, main (Mb) against the final tree (F4b), bf16 builds of the ops, off the
# grid at call5's widths (softmax, rmsnorm, layernorm bf16, two passes, checked against unfused).
cd "$(dirname "$0")"; R=$(cd ../../.. && pwd)
mkdir -p /tmp/b && tar xzf $R/.device-carry/d55/b.tgz -C /tmp/b
DTYPES=bf16 OPS=softmax,rmsnorm,layernorm MIS=337,501,601,2301,2901,4601,5801,8265,9201,11001,26001,106001 \
  AL=1024,3000 PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call6 /tmp/b Mb F4b
