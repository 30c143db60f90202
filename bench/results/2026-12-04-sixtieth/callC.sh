#!/bin/bash
# callC.sh NAME: on the device, main's softmax family (M) against C (round 50's cluster rows)
# from the slim builds in .device-carry/s60, fp16 and bf16, aligned around the changed rows and
# off the grid at 100003, two passes (../2026-12-02-fifty-fourth/run1.sh); then QuACK's softmax
# at the same widths where callW/callQ installed it on this machine (/tmp/peer-site).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/c && cp $R/.device-carry/s60/rfb-* /tmp/c/
AL=${AL:-32768,65536,98312,114688,122880,131072,196616,229376,262144}
OPS=softmax,log_softmax DTYPES=fp16,bf16 PASSES=2 MIS=100003 AL=$AL \
  bash ../2026-12-02-fifty-fourth/run1.sh $1 /tmp/c M C
if [ -d /tmp/peer-site ]; then
  export PYTHONPATH=/tmp/peer-site/nvidia_cutlass_dsl/dsl_packages:/tmp/peer-site
  (cd $R && PYTHONUNBUFFERED=1 python3 bench/peers.py --impl quack --op softmax --dtype fp16,bf16 \
    --cols $AL --out /tmp/$1/quack.csv) 2> /tmp/$1/quack.log | tail -2
  tar czf $OUT/$1.tgz -C /tmp $1
  python3 -c "
import csv
for r in csv.DictReader(open('/tmp/$1/quack.csv')): print(r['op'], r['dtype'], r['cols'], r['impl'], r['ratio_to_copy'])"
fi
