#!/bin/bash
# Thirty-first session: rows of five packs between the 16-bit cluster rows. rfb-old: 5d8f8cf's
# objects and planner; rfb-v1, rfb-new, ...: this session's builds (whichever are in $1).
# Interleaved, two passes, the first new pass checked.
# $1: folder of the xz binaries (rfb-<name>-<dt>.xz), $2: dtype, $3: ops, $4: aligned widths,
# $5: misaligned widths
D=$1; DT=$2; OPS=$3; W=$4; M=$5
R=/tmp/s31-$DT; mkdir -p $R /tmp/bin
BINS=$(cd $D && ls rfb-*-$DT.xz | sed "s/-$DT.xz//" | sort -k1,1 | awk '/rfb-old/{print; next}{a[n++]=$0} END{for(i=0;i<n;i++) print a[i]}')
for b in $BINS; do python3 -c "import lzma; open('/tmp/bin/$b-$DT','wb').write(lzma.open('$D/$b-$DT.xz').read())"; chmod +x /tmp/bin/$b-$DT; done
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,driver_version --format=csv > $R/device.txt
git rev-parse HEAD >> $R/device.txt; git status --short >> $R/device.txt; echo $BINS >> $R/device.txt
pack() { (cd $R && tar czf $OUT/s31-$DT.tgz .); }
start=$(date +%s)
for pass in 1 2; do
  for b in $BINS; do
    v="--variant fused,copy --no-check"; [ $pass = 1 ] && [ $b = rfb-new ] && v=
    if [ -n "$M" ]; then
      timeout 200 /tmp/bin/$b-$DT --op $OPS --dtype $DT --cols $M --misalign $v --reps 20 --budget-ms 150 --format csv --out $R/$b-mis-$pass.csv > /dev/null 2>> $R/bench.log
      echo "$b mis pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    fi
    if [ -n "$W" ]; then
      timeout 150 /tmp/bin/$b-$DT --op $OPS --dtype $DT --cols $W $v --reps 20 --budget-ms 150 --format csv --out $R/$b-$pass.csv > /dev/null 2>> $R/bench.log
      echo "$b pass $pass rc=$? at $(( $(date +%s) - start )) s" >> $R/log.txt; pack
    fi
  done
done
cat $R/log.txt
