#!/bin/bash
# Thirtieth session: GPU suites (built on the development machine), each under timeout $2 s;
# summaries and each suite's output into $OUT/<folder>.tgz.
D=$1; T=${2:-280}; R=/tmp/$(basename $D); mkdir -p $R /tmp/bin
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt; git rev-parse HEAD >> $R/device.txt
start=$(date +%s)
for t in $D/gpu_*.xz; do
  b=$(basename $t .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$t').read())"; chmod +x /tmp/bin/$b
  timeout $T /tmp/bin/$b -d > $R/$b.txt 2>&1
  echo "$b rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; tail -3 $R/$b.txt >> $R/log.txt
  (cd $R && tar czf $OUT/$(basename $D).tgz .)
done
cat $R/log.txt
