#!/bin/bash
# Twenty-seventh session, call 3: widths between the tables' rows and the widths models use
# (hidden sizes 5120, 6144, 12288; vocabularies 32000, 50257, 128256, 151936), fp16, HEAD's build.
R=/tmp/s27c; mkdir -p $R /tmp/bin
for f in .device-carry/s27/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s27c.tgz .); }
start=$(date +%s)
W=256,264,1024,1032,4096,4104,5120,6144,8192,8200,12288,16384,16392,20480,24576,32000,32768,32776,50257,65536,65544,128256,131072,151936
for pass in 1 2; do
  v="--variant fused,copy --no-check"; [ $pass = 1 ] && v=
  timeout 250 /tmp/bin/rfb-h --op softmax,log_softmax,layernorm,rmsnorm,attention,residual,layernorm_fp8 --dtype fp16 --cols $W $v --reps 20 --budget-ms 150 --format csv --out $R/fwd-$pass.csv > /dev/null 2>> $R/bench.log
  echo "fwd pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
done
timeout 120 /tmp/bin/rfb-h --op layernorm_backward,rmsnorm_backward,softmax_backward,log_softmax_backward --dtype fp16 --cols 5120,6144,12288,20480,24576,32000,50257,128256,151936 --variant fused,copy --no-check --reps 20 --budget-ms 150 --format csv --out $R/bwd.csv > /dev/null 2>> $R/bench.log
echo "bwd rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
cat $R/log.txt
