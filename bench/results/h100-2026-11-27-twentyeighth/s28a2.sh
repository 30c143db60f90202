#!/bin/bash
# Twenty-eighth session, calls 1-5 (call 5: the final tables, sized twins on the rows measured to win): whole-block rows sized at the launch. rfb-old: HEAD's fp16 ops
# and pipelines (objects and planner of c18be5d), rfb-new: this build's. Interleaved, two passes,
# the first new pass checked against unfused.
R=/tmp/s28a2; mkdir -p $R /tmp/bin
for f in .device-carry/s28a/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s28a2.tgz .); }
start=$(date +%s)
W=264,1032,2048,2056,2560,3000,4096,4104,5120,6144,7168,8192,8200,10240,11008,12288,14336,16384,16392,20480,24576,32768
for pass in 1 2; do
  for b in rfb-old rfb-new; do
    v="--variant fused,copy --no-check"; [ $pass = 1 ] && [ $b = rfb-new ] && v=
    timeout 280 /tmp/bin/$b --op softmax,log_softmax,layernorm,rmsnorm,attention,residual,residual_tee,layernorm_fp8 --dtype fp16 --cols $W $v --reps 20 --budget-ms 150 --format csv --out $R/$b-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    timeout 200 /tmp/bin/$b --op softmax,log_softmax,layernorm,rmsnorm,attention,residual,layernorm_fp8 --dtype fp16 --cols 4105,5121,8201,12287,20481 --misalign $v --reps 20 --budget-ms 150 --format csv --out $R/$b-mis-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b mis pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
  done
done
cat $R/log.txt
