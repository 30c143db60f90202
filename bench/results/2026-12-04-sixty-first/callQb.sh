#!/bin/bash
# callQb.sh NAME: on the device after callQa.sh, with .peer-wheels/b carried: QuACK 0.6.5 installed
# (/tmp/peer-site, kept for later calls of the lease), then its softmax and rmsnorm forward, fp16 and
# bf16, at COLS (bench/peers.py: the GPU work alone, ratio to its own copy).
cd "$(dirname "$0")"; R=$PWD/../../..; d=/tmp/$1; mkdir -p $d
cp $R/.peer-wheels/b/* /tmp/peer-wheels/ && export PYTHONPATH=$(bash /tmp/peer-wheels/install.sh)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
(cd $R && PYTHONUNBUFFERED=1 python3 bench/peers.py --impl quack --op softmax,rmsnorm --dtype fp16,bf16 \
  --cols ${COLS:-1024,4096,32768,65536,122880,131072,262144} --out $d/quack.csv) 2> $d/quack.log | tail -3
tail -3 $d/quack.log
tar czf $OUT/$1.tgz -C /tmp $1
python3 -c "
import csv
for r in csv.DictReader(open('$d/quack.csv')): print(r['op'], r['dtype'], r['cols'], r['impl'], r['ratio_to_copy'])"
