#!/bin/bash
# Rounds 30-32 of experiments/row_shapes.cu on the device: each part's binary (rs<part>, built with
# -DROW_SHAPES_ROUND=$1 -DROW_SHAPES_PART=<part>, carried in .device-carry/r$1), two runs each,
# interleaved, output into $OUT. Calls 3, 7 and 10 ran it as `rounds-run.sh 30 "0 10 3"`,
# `rounds-run.sh 31 "0 10 3"` and `rounds-run.sh 32 1`.
ROUND=$1; PARTS=$2; D=.device-carry/r$ROUND
nvidia-smi --query-gpu=name,driver_version --format=csv > $OUT/device.txt
for pass in 1 2; do
  for p in $PARTS; do
    $D/rs$p > $OUT/r${ROUND}_p${p}_run$pass.txt 2>&1
    echo "part $p pass $pass rc=$?" >> $OUT/log.txt
  done
done
cat $OUT/log.txt
