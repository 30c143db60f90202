#!/bin/bash
# call1.sh: on an H200, carrying .device-carry/s69a: rfb-M0 (the sixty-eighth session's rfb-M, main
# before V51), rfb-V51 and rfb-V54 (prepare-lease.sh, prepare-variants.sh V54) and
# gpu_cluster_engine and gpu_softmax_shapes (build/device-slim at 600927d). Runs
# the two suites that run V51's rows; the sixty-eighth session's callV54.sh; and main before V51 (M)
# against V51 at the widths where an H200's phased plans now take V51's phased kernel (16-bit
# softmax and log-softmax, 196609-262144 columns, off the grid) with aligned controls there (M0
# against V51: main before and after V51).
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s69a; mkdir -p /tmp/suites
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for s in gpu_cluster_engine gpu_softmax_shapes; do
  start=$(date +%s); $C/$s > /tmp/suites/$s.log 2>&1; rc=$?
  echo "$s rc=$rc $(( $(date +%s) - start )) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites/$s.log | tr '\n' ' ')"
done
tar czf $OUT/suites.tgz -C /tmp suites
# The sixty-eighth session's callV54.sh, on M0 (main before V51, the tree V54's diff was made on).
OPS=softmax,log_softmax,rmsnorm,layernorm DTYPES=fp16 PASSES=2 \
  AL=32,64,96,128,160,192,256,320,384,448,512,640,768,1024,2048,2560,3072,4096,5120,6144,7168,8192,10240,12288,16384,20480,24576,28672,32768,49152,57344,65536,98304,114688,131072,196608,262144 \
  MIS=601,2577,4601,9201,22001,53001,106001 \
  bash ../2026-12-02-fifty-fourth/run1.sh callV54 $C M0 V54
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 AL=131072,196608,229376,262144 \
  MIS=1000,196609,200003,229377,262143 \
  bash ../2026-12-02-fifty-fourth/run1.sh callV51h200 $C M0 V51
