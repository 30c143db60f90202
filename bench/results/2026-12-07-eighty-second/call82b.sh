#!/bin/bash
# call82b.sh: on the device, gpu.phased_rows' residual block case built from V82c with its widths
# cut to those of the rows V82c adds (140001, 180001 and 200003 one element off, with and without
# the tee: `V82c-phased-rows-trimmed.diff`; carry .device-carry/t82c), under a 250 s limit.
cd "$(dirname "$0")"; R=$PWD/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date +%T
timeout 250 $R/.device-carry/t82c/gpu_phased_rows "-tc=*residual block*" > $OUT/phased82.log 2>&1
echo "rc=$?"; date +%T; tail -8 $OUT/phased82.log
