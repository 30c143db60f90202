#!/bin/bash
# callF.sh NAME: on the device, with .peer-wheels/3c carried, after callB.sh 3a and callB.sh 3b built
# rowfuse-bench: the last wheel folder in and QuACK and Liger installed (callW.sh 3c), then
# bench/full-run.sh over the prebuilt bench (PREBUILT=1), every op, pipeline and backward op, fp32 /
# fp16 / bf16, 32-262144 columns, PyTorch eager and torch.compile, QuACK and Liger, into $OUT/NAME.
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R
bash bench/results/2026-12-05-sixty-third/callW.sh 3c | tail -2
export PYTHONPATH=$(cat /tmp/peer-wheels/PYTHONPATH)
PREBUILT=1 OUT=$OUT/$1 BUDGET_S=${BUDGET_S:-520} bash bench/full-run.sh
