#!/bin/bash
# callQ1.sh: on the device, carrying .device-carry/q1 (pack-quack.sh's first part of QuACK's
# installed site, xz): kept in /tmp/peer-parts for callQ2.sh on the same warm machine.
R=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p /tmp/peer-parts && cp $R/.device-carry/q1/site.part0 /tmp/peer-parts/ && ls -la /tmp/peer-parts
