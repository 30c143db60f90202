#!/bin/bash
# Twenty-seventh session, call 12: a 65536-column forced-plans cluster row in layernorm's 16-bit
# tables (4 x 256 in 8, the chains' row), which phased rows of 32769-65536 columns take.
# rfb-lb: the tables before it, rfb-la: with it (fp16 ops and pipelines; this session's planner).
# gpu.phased_rows on the build with it.
R=/tmp/s27l; mkdir -p $R /tmp/bin
for f in .device-carry/s27l/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s27l.tgz .); }
start=$(date +%s)
W=32767,40001,50257,60001,65535,100003
for pass in 1 2; do
  for b in rfb-lb rfb-la; do
    v="--variant fused,copy --no-check"; [ $pass = 1 ] && [ $b = rfb-la ] && v=
    for lay in aligned misalign; do
      m=; [ $lay = misalign ] && m=--misalign
      timeout 120 /tmp/bin/$b --op layernorm,layernorm_fp8,residual_tee,residual,rmsnorm --dtype fp16 --cols $W $m $v --reps 20 --budget-ms 150 --format csv --out $R/$b-$lay-$pass.csv > /dev/null 2>> $R/bench.log
      echo "$b $lay pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    done
    timeout 120 /tmp/bin/$b --op layernorm,layernorm_fp8 --dtype fp16 --cols 65536,131072 $v --reps 20 --budget-ms 150 --format csv --out $R/$b-controls-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b controls pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
  done
done
timeout 240 /tmp/bin/gpu_phased_rows > $R/gpu_phased_rows.txt 2>&1
echo "gpu_phased_rows rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; tail -3 $R/gpu_phased_rows.txt >> $R/log.txt; pack
cat $R/log.txt
