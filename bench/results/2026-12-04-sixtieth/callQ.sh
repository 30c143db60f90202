#!/bin/bash
# callQ.sh NAME: on the device, after callW.sh copied .peer-wheels/a: QuACK 0.6.5's softmax and
# rmsnorm forward, fp16, at round 50's widths (bench/peers.py, the GPU work alone, ratio to its
# own copy).
cd "$(dirname "$0")"; R=$PWD/../../..; d=/tmp/$1; mkdir -p $d
cp $R/.peer-wheels/b/* /tmp/peer-wheels/ && export PYTHONPATH=$(bash /tmp/peer-wheels/install.sh)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
(cd $R && PYTHONUNBUFFERED=1 python3 bench/peers.py --impl quack --op softmax,rmsnorm --dtype fp16 \
  --cols ${COLS:-65536,98312,114688,131072,196616,262144} --out $d/quack.csv) 2> $d/quack.log | tail -3
tail -3 $d/quack.log
tar czf $OUT/$1.tgz -C /tmp $1
python3 -c "
import csv
for r in csv.DictReader(open('$d/quack.csv')): print(r['op'], r['dtype'], r['cols'], r['impl'], r['ratio_to_copy'])"
