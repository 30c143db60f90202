#!/bin/bash
# run5.sh NAME: on the device, round 49's parts 10 (log-softmax fp16) and 0 (softmax fp16) built
# from main (M) and from the group rows' 32-bit column arithmetic (B) (build49s.sh,
# .device-carry/s50sM, s50sB), interleaved, three passes, and each kernel's instruction count
# (cuobjdump -sass); into $OUT/NAME.tgz.
cd "$(dirname "$0")"; d=/tmp/$1; mkdir -p $d
for v in M B; do for c in 10 0; do
  cuobjdump -sass ../../../.device-carry/s50s$v/c$c.cubin | awk '/Function :/{f=$3} /^ +\/\*[0-9a-f]+\*\//{k[f]++} END{for(x in k) print k[x], x}' | sort -k2 > $d/count-$v-$c.txt
done; done
for pass in 1 2 3; do for v in M B; do for b in r10 r0; do
  ../../../.device-carry/s50s$v/$b > $d/$v-$b-a0-$pass.txt 2>&1
done; done; done
tar czf $OUT/$1.tgz -C /tmp $1
