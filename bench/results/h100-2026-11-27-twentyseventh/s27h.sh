#!/bin/bash
# Twenty-seventh session, call 9: two of the softmax backward's phased kernels capped (16-bit
# 2048-column row, softmax backward alone's 1024-column row). rfb-bn: call 7's build, rfb-bc: the
# capped one (fp16 backward ops). gpu.backward_softmax on the capped build.
R=/tmp/s27h; mkdir -p $R /tmp/bin
for f in .device-carry/s27h/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s27h.tgz .); }
start=$(date +%s)
for pass in 1 2; do
  for b in rfb-bn rfb-bc; do
    v="--variant fused,copy --no-check"; [ $pass = 1 ] && [ $b = rfb-bc ] && v=
    timeout 150 /tmp/bin/$b --op softmax_backward,log_softmax_backward,attention_backward --dtype fp16 --cols 300,1000,1500,2047,3000,4097 --misalign $v --reps 20 --budget-ms 150 --format csv --out $R/$b-mis-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b mis pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    timeout 150 /tmp/bin/$b --op softmax_backward,log_softmax_backward,attention_backward --dtype fp16 --cols 1024,2048,1001,2041 $v --reps 20 --budget-ms 150 --format csv --out $R/$b-ali-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b ali pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
  done
done
timeout 240 /tmp/bin/gpu_backward_softmax > $R/gpu_backward_softmax.txt 2>&1
echo "gpu_backward_softmax rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; tail -3 $R/gpu_backward_softmax.txt >> $R/log.txt; pack
cat $R/log.txt
