#!/bin/bash
# sass.sh: on the device, cuobjdump -sass of the slim builds' objects carried in .device-carry/s60o
# (none here), the log-softmax kernels' SASS compressed under $OUT for sassdiff.py.
cd "$(dirname "$0")"; C=../../../.device-carry/s60o
for f in $C/*.o; do
  n=$(basename $f .o); cuobjdump -sass $f > /tmp/$n.sass 2>&1; echo "$n $(grep -c Function /tmp/$n.sass) kernels"
done
tar cJf $OUT/sass.tar.xz -C /tmp $(cd /tmp && ls *.sass)
