#!/bin/bash
# build.sh V: pipelines fp16, then ops fp16 and fp32, into .device-carry/s57/rfb-V
cd /work/main
export GROUP=s57
V=$1
bash bench/results/2026-12-01-forty-fifth/build-variant.sh $V pipelines fp16 > /work/var/s57/build-$V-p.log 2>&1 || { echo FAIL p; exit 1; }
KEEP=pipelines_fp16 bash bench/results/2026-12-01-forty-fifth/build-variant.sh $V ops fp16,fp32 > /work/var/s57/build-$V-o.log 2>&1 || { echo FAIL o; exit 1; }
echo done $V
