#!/bin/bash
# pack-quack.sh: on the development machine, QuACK's wheels (../shared/peers/fetch-wheels.sh into
# .peer-wheels, Liger's left out) installed for CPython 3.12 into a site folder, cuda-bindings'
# Cython sources dropped, xz-packed and cut in two for callQ1.sh / callQ2.sh (.device-carry/q1 and
# q2, each under a call's 64 MiB beside the tree), with rfb-main (prepare-variants.sh's build of
# main's code) beside the second part.
set -euo pipefail
R=$(cd "$(dirname "$0")/../../.." && pwd); cd $R; W=.peer-wheels; tmp=$(mktemp -d)
mkdir -p $tmp/whl .device-carry/q1 .device-carry/q2
cp $W/a/*.whl $W/b/*.whl $tmp/whl/ && rm $tmp/whl/liger_kernel*.whl
cat $W/a/part.aa $W/b/part.ab > $tmp/whl/$(cat $W/b/BIG_WHEEL_NAME)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target $tmp/peer-site \
  --python-version 3.12 --implementation cp --platform manylinux_2_28_x86_64 \
  --platform manylinux_2_24_x86_64 --only-binary=:all: $tmp/whl/*.whl
find $tmp/peer-site/cuda \( -name '*.cpp' -o -name '*.pyx' -o -name '*.pxd' \) -delete
tar cf - -C $tmp peer-site | xz -6 -T2 > $tmp/site.tar.xz
head -c 40000000 $tmp/site.tar.xz > .device-carry/q1/site.part0
tail -c +40000001 $tmp/site.tar.xz > .device-carry/q2/site.part1
sha256sum $tmp/site.tar.xz | cut -d' ' -f1 > .device-carry/q2/site.sha256
cp ${RFB:-.device-carry/s67/rfb-V67} .device-carry/q2/rfb-main
rm -rf $tmp; du -b .device-carry/q1 .device-carry/q2
