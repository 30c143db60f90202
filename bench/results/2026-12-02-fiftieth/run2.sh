#!/bin/bash
# run2.sh NAME A B...: on the device, round 49's timed builds of each variant (build49ab.sh, carried
# in .device-carry/s50A etc.), interleaved, three passes; the instruction count of each kernel of
# each variant's cubins (cuobjdump); everything into $OUT/NAME.tgz.
cd "$(dirname "$0")"; n=$1; shift; d=/tmp/$n; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $d/gpu.txt
for v in "$@"; do for c in 1 3; do
  cuobjdump -sass ../../../.device-carry/s50$v/c$c.cubin | awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{k[f]++} END{for(x in k) print k[x], x}' | sort -k2 > $d/count-$v-$c.txt
done; done
for pass in 1 2 3; do for v in "$@"; do for b in r1-a0 r3-a0 r1-a2 r3-a2; do
  ../../../.device-carry/s50$v/$b > $d/$v-$b-$pass.txt 2>&1
done; done; done
tar czf $OUT/$n.tgz -C /tmp $n; ls -la $OUT
