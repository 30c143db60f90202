#!/bin/bash
# split-wheels.sh: on the development machine, re-packs the two peer-wheel folders of
# ../../../../shared/peers/fetch-wheels.sh (.peer-wheels/a, .peer-wheels/b: 56 and 55 MiB) as three,
# .peer-wheels/3a, 3b and 3c of at most 40 MiB each, so that one of them travels with the tracked
# tree (17.6 MiB since the older result folders were packed) under the device call's 64 MiB without
# moving result folders out of the tree (../2026-12-04-sixty-second/hide-results.sh).
# On the device: callW.sh 3a, callW.sh 3b, then callW.sh 3c (it installs), one call each, back to
# back on the same warm machine.
set -euo pipefail
R=$(cd "$(dirname "$0")/../../.." && pwd); W=$R/.peer-wheels
[ -d $W/a ] && [ -d $W/b ] || { echo "no $W/a and $W/b (shared/peers/fetch-wheels.sh)" >&2; exit 1; }
rm -rf $W/3a $W/3b $W/3c && mkdir -p $W/3a $W/3b $W/3c
big=$W/3a/$(cat $W/b/BIG_WHEEL_NAME)
cat $W/a/part.* $W/b/part.* > "$big"
split -n 3 -d "$big" $W/3a/part. && rm "$big"   # part.00, part.01, part.02: install.sh joins part.*
mv $W/3a/part.01 $W/3b/ && mv $W/3a/part.02 $W/3c/
cp $W/a/*.whl $W/3a/
cp $W/b/cuda_bindings-*.whl $W/3b/
cp $W/b/BIG_WHEEL_NAME $W/b/install.sh $W/3c/
du -sh $W/3a $W/3b $W/3c
