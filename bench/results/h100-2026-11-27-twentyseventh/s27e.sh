#!/bin/bash
# Twenty-seventh session, call 6: the wide rows' phased kernels capped (tuning.hpp).
# gpu.phased_rows on this build (planner + caps); rfb-b: the ops' kernels of HEAD's headers, rfb-c:
# this build's (fp16 and fp32 ops; both with this planner). Odd and misaligned widths on the capped
# rows, aligned controls; two passes interleaved, pass 1 of rfb-c checked.
R=/tmp/s27e; mkdir -p $R /tmp/bin
for f in .device-carry/s27e/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s27e.tgz .); }
start=$(date +%s)
timeout 240 /tmp/bin/gpu_phased_rows > $R/gpu_phased_rows.txt 2>&1
echo "gpu_phased_rows rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; tail -3 $R/gpu_phased_rows.txt >> $R/log.txt; pack
for pass in 1 2; do
  for b in rfb-b rfb-c; do
    v="--variant fused,copy --no-check"; [ $pass = 1 ] && [ $b = rfb-c ] && v=
    timeout 120 /tmp/bin/$b --op softmax,log_softmax --dtype fp16,fp32 --cols 40001,50257,60001,100003,150001,200003,262143 --misalign $v --reps 20 --budget-ms 150 --format csv --out $R/$b-mis-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b mis pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    timeout 120 /tmp/bin/$b --op softmax,log_softmax --dtype fp16,fp32 --cols 50257,150001,65536,131072,262144 $v --reps 20 --budget-ms 150 --format csv --out $R/$b-ali-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b ali pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
  done
done
cat $R/log.txt
