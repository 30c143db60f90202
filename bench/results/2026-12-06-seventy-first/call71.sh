#!/bin/bash
# call71.sh: on the device, carrying .device-carry/s73 (rfb-M: main at e285f24, the seventieth
# session's baseline; rfb-N: main at 3dcf886; rfb-V61, rfb-V62: N with log-softmax's narrow rows
# changed, prepare-variants.sh over /work/var/s67/V61 and V62; rs-10-p1o1 and rs-3-p0o0:
# build-round.sh 52). Every rowfuse-bench build is checked against unfused before timing
# (../2026-12-02-fifty-fourth/run1.sh), two passes interleaved, fp16 and bf16.
# On an H100: row_shapes round 52, then N against V61 and V62 at log-softmax's 128-264 columns.
# On an H200: M against N where V59 and V60 (enabled on main, timed on an H100 only) move an H200's
# plans (softmax and log-softmax 98305-114688 aligned and one element off; log-softmax one element
# off at 49160-65543), then N against V61 and V62 (an H200 plans the same kernels: a control).
# $OUT/*.tgz and the tables on stdout.
cd "$(dirname "$0")"; C=$PWD/../../../.device-carry/s73; F=../2026-12-02-fifty-fourth/run1.sh
dev=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "device: $dev"
if [[ $dev == *H200* ]]; then
  OPS=softmax,log_softmax DTYPES=fp16,bf16 AL=65536,98312,106496,114688,131072 \
    MIS=53001,60001,65535,100003,106001,114687 bash $F callH200 $C M N
  OPS=log_softmax DTYPES=fp16,bf16 AL=136,144,200,248,256 MIS=300 bash $F callV61h200 $C N V61 V62
else
  mkdir -p /tmp/r52
  for b in rs-10-p1o1 rs-3-p0o0; do
    timeout 120 $C/$b > /tmp/r52/$b.txt 2>&1; echo "$b rc=$?"
  done
  tar czf $OUT/r52.tgz -C /tmp r52
  grep -h ratio /tmp/r52/rs-*.txt | awk '{print $1, $3, $4, $5, $6, $7, $8, $(NF-8), $(NF-6), $(NF-4), $(NF-2), $NF}'
  OPS=log_softmax DTYPES=fp16,bf16 AL=128,136,144,152,160,176,192,200,208,216,224,232,240,248,256,264 \
    MIS=137,201,247,300 bash $F callV61 $C N V61 V62
fi
