#!/bin/bash
# call1.sh: on an H200, carrying .device-carry/s67 (prepare-lease.sh, prepare-variants.sh V54) and
# .device-carry/s68 (gpu_cluster_engine and gpu_softmax_shapes from build/device-slim at 600927d):
# the two suites that run V51's rows; the sixty-eighth session's callV54.sh; and main before V51 (M)
# against V51 at the widths where an H200's phased plans now take V51's phased kernel (16-bit
# softmax and log-softmax, 196609-262144 columns, off the grid) with aligned controls there.
cd "$(dirname "$0")"; R=$PWD/../../..; mkdir -p /tmp/suites
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
for s in gpu_cluster_engine gpu_softmax_shapes; do
  start=$(date +%s); $R/.device-carry/s68/$s > /tmp/suites/$s.log 2>&1; rc=$?
  echo "$s rc=$rc $(( $(date +%s) - start )) s: $(grep -E '^\[doctest\] (test cases|assertions)' /tmp/suites/$s.log | tr '\n' ' ')"
done
tar czf $OUT/suites.tgz -C /tmp suites
bash ../2026-12-05-sixty-eighth/callV54.sh
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 AL=131072,196608,229376,262144 \
  MIS=1000,196609,200003,229377,262143 \
  bash ../2026-12-02-fifty-fourth/run1.sh callV51h200 $R/.device-carry/s67 M V51
