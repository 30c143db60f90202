#!/bin/bash
# Twenty-ninth session: cluster rows sized at the launch. rfb-old: HEAD's (546ce9d) objects and
# planner, rfb-new: this build's. Interleaved, two passes, the first new pass checked.
# $1: the folder of the two xz binaries, $2: dtype, $3: ops, $4: aligned widths, $5: misaligned widths
D=$1; DT=$2; OPS=$3; W=$4; M=$5
R=/tmp/s29-$DT; mkdir -p $R /tmp/bin
for f in $D/*.xz; do b=$(basename $f .xz); python3 -c "import lzma; open('/tmp/bin/$b','wb').write(lzma.open('$f').read())"; chmod +x /tmp/bin/$b; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s29-$DT.tgz .); }
start=$(date +%s)
for pass in 1 2; do
  for b in rfb-old rfb-new; do
    v="--variant fused,copy --no-check"; [ $pass = 1 ] && [ $b = rfb-new ] && v=
    timeout 250 /tmp/bin/$b --op $OPS --dtype $DT --cols $W $v --reps 20 --budget-ms 150 --format csv --out $R/$b-$pass.csv > /dev/null 2>> $R/bench.log
    echo "$b pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    if [ -n "$M" ]; then
      timeout 150 /tmp/bin/$b --op $OPS --dtype $DT --cols $M --misalign $v --reps 20 --budget-ms 150 --format csv --out $R/$b-mis-$pass.csv > /dev/null 2>> $R/bench.log
      echo "$b mis pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    fi
  done
done
cat $R/log.txt
