#!/bin/bash
# Twenty-seventh session, call 15: the final build's fp16 ops and pipelines (rfb-la) over the
# standard aligned widths, fused and copy, two passes: the aligned cells against the twenty-second
# session's results.csv (another call on the same H100 kind).
R=/tmp/s27s; mkdir -p $R /tmp/bin
python3 -c "import lzma; open('/tmp/bin/rfb-la','wb').write(lzma.open('.device-carry/s27l/rfb-la.xz').read())"; chmod +x /tmp/bin/rfb-la
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt; git rev-parse HEAD >> $R/device.txt
start=$(date +%s)
for pass in 1 2; do
  timeout 200 /tmp/bin/rfb-la --op softmax,log_softmax,layernorm,rmsnorm,attention,residual,residual_tee,layernorm_fp8 --dtype fp16 --cols 32:262144 --variant fused,copy --no-check --reps 20 --budget-ms 150 --format csv --out $R/sweep-$pass.csv > /dev/null 2>> $R/bench.log
  echo "sweep pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt
  (cd $R && tar czf $OUT/s27s.tgz .)
done
cat $R/log.txt
