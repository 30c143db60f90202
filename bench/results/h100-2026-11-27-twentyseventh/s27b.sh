#!/bin/bash
# Twenty-seventh session, call 2: do the norms' backward lose to the stride of their chunk walk?
# Power-of-two widths against neighbours whose row bytes are not (same engine rows), the softmax
# backward (tiles, consecutive rows) as the control. HEAD's build.
R=/tmp/s27b; mkdir -p $R /tmp/bin
for f in .device-carry/s27/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s27b.tgz .); }
start=$(date +%s)
W=256,264,1000,1024,1032,2000,2048,2056,4000,4096,4104,8192,8200,16384,16392,32768,32776,65536,65544
for pass in 1 2; do
  timeout 200 /tmp/bin/rfb-h --op layernorm_backward,rmsnorm_backward,softmax_backward --dtype fp16 --cols $W --variant fused,copy --no-check --reps 20 --budget-ms 150 --format csv --out $R/stride-$pass.csv > /dev/null 2>> $R/bench.log
  echo "pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
done
cat $R/log.txt
