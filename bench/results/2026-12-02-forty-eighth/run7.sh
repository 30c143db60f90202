#!/bin/bash
# run7.sh: on the device, pipeline_shapes.cu's survey of the widths between the powers of two
# (PIPELINE_SHAPES_BETWEEN=1, half 1 of attention, residual, residual_tee and layernorm -> fp8,
# fp16: parts 1, 3, 5, 7), one pass, as call7/ (call7-DIR.tgz under $OUT). run7.sh DIR PARTS: the
# binaries in .device-carry/DIR (two calls: s48p with 1 3, s48q with 5 7; one carries 64 MiB).
cd "$(dirname "$0")"; d=call7; mkdir -p $d; c=$1; shift
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
for p in "$@"; do
  ../../../.device-carry/$c/ps$p > $d/ps$p.csv 2> $d/ps$p.err; echo "ps$p rc=$? $(date +%T)"
done
tar czf $OUT/$d-$c.tgz $d
