#!/bin/bash
# Twenty-seventh session, call 5: phased rows pass held rows by (src/plan.cpp take_unheld_shape).
# rfb-o: HEAD planner, rfb-n: this planner; the same kernels (fp16 ops and pipelines).
# Odd widths 32769-65536 (rows off the grid: phased), aligned and misaligned layouts; controls at
# widths whose plans do not change. Pass 1 of rfb-n checked against unfused.
R=/tmp/s27d; mkdir -p $R /tmp/bin
for f in .device-carry/s27n/rfb-o.xz .device-carry/s27n/rfb-n.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s27d.tgz .); }
start=$(date +%s)
W=32767,40001,50257,60001,65535,100003
for pass in 1 2; do
  for b in rfb-o rfb-n; do
    v="--variant fused,copy --no-check"; [ $pass = 1 ] && [ $b = rfb-n ] && v=
    for lay in aligned misalign; do
      m=; [ $lay = misalign ] && m=--misalign
      timeout 120 /tmp/bin/$b --op layernorm,rmsnorm,softmax,layernorm_fp8,residual,residual_tee --dtype fp16 --cols $W $m $v --reps 20 --budget-ms 150 --format csv --out $R/$b-$lay-$pass.csv > /dev/null 2>> $R/bench.log
      echo "$b $lay pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    done
  done
done
cat $R/log.txt
