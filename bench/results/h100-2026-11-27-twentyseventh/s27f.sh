#!/bin/bash
# Twenty-seventh session, call 7: phased rows for the softmax family's backward (register engine,
# launch.cuh phases_allow). rfb-bb: backward ops of HEAD's headers; rfb-bn: this build's (fp16 and
# fp32). Misaligned and odd widths, aligned controls; two passes interleaved, pass 1 of rfb-bn
# checked against unfused. Then the GPU suites when they are there.
R=/tmp/s27f; mkdir -p $R /tmp/bin
for f in .device-carry/s27f/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s27f.tgz .); }
start=$(date +%s)
OPS=softmax_backward,log_softmax_backward,attention_backward,layernorm_backward
for pass in 1 2; do
  for b in rfb-bb rfb-bn; do
    v="--variant fused,copy --no-check"; [ $pass = 1 ] && [ $b = rfb-bn ] && v=
    timeout 150 /tmp/bin/$b --op $OPS --dtype fp16,fp32 --cols 300,1000,2047,3000,4097,8191,16383,32767,50257,100003 --misalign $v --reps 20 --budget-ms 150 --format csv --out $R/$b-mis-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b mis pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    timeout 150 /tmp/bin/$b --op $OPS --dtype fp16,fp32 --cols 1024,8192,65536,50257,151937 $v --reps 20 --budget-ms 150 --format csv --out $R/$b-ali-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b ali pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
  done
done
for t in .device-carry/s27f/gpu_*.xz; do
  [ -e "$t" ] || continue
  b=$(basename $t .xz); timeout 240 /tmp/bin/$b > $R/$b.txt 2>&1
  echo "$b rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; tail -3 $R/$b.txt >> $R/log.txt; pack
done
cat $R/log.txt
