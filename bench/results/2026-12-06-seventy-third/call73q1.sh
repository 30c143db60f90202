#!/bin/bash
# call73q1.sh PART: the first two of three calls back to back on one warm machine: QuACK's and
# Liger's wheels, a third each (.peer-wheels/c1, then c2, carried), copied to /tmp/peer-wheels
# (../shared/peers/README.md's two folders, re-split in three: with the tracked tree, 17 MB now,
# one folder of 57 MB passes a call's 64 MiB).
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/peer-wheels && cp .peer-wheels/$1/* /tmp/peer-wheels/ && ls /tmp/peer-wheels | wc -l
