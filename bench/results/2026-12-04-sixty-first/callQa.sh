#!/bin/bash
# callQa.sh: on the device, the first half of QuACK's and Liger's wheels (.peer-wheels/a, carried)
# into /tmp/peer-wheels for callQb.sh on the same warm machine (../../../../shared/peers/README.md).
cd "$(dirname "$0")"; R=$PWD/../../..
mkdir -p /tmp/peer-wheels && cp $R/.peer-wheels/a/* /tmp/peer-wheels/ && ls /tmp/peer-wheels | wc -l
