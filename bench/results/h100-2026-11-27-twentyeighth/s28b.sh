#!/bin/bash
# Twenty-eighth session: backward ops on blocks sized at the launch. rfb-bold: HEAD's fp16
# backward objects (compiled from c18be5d's headers) and planner, rfb-bnew: this build's.
R=/tmp/s28b; mkdir -p $R /tmp/bin
for f in .device-carry/s28b/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s28b.tgz .); }
start=$(date +%s)
W=1024,1032,2048,2056,3000,4096,4104,5120,6144,8192,8200,10240,12288,16384,16392,20480
for pass in 1 2; do
  for b in rfb-bold rfb-bnew; do
    v="--variant fused,copy --no-check"; [ $pass = 1 ] && [ $b = rfb-bnew ] && v=
    timeout 200 /tmp/bin/$b --op softmax_backward,log_softmax_backward,layernorm_backward,rmsnorm_backward,attention_backward --dtype fp16 --cols $W $v --reps 20 --budget-ms 150 --format csv --out $R/$b-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    timeout 200 /tmp/bin/$b --op softmax_backward,log_softmax_backward,attention_backward --dtype fp16 --cols 4105,5121,8201,12287 --misalign $v --reps 20 --budget-ms 150 --format csv --out $R/$b-mis-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b mis pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
  done
done
cat $R/log.txt
