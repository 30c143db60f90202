#!/bin/bash
# ab.sh V DIR: on the device, M (main) and the build V (README: V, V2), slim rowfuse-bench builds
# (pipelines fp16 / fp32, backward fp16) made on the development machine. V checked against
# unfused (2^24 elements, aligned and off the grid), then M and V timed interleaved, three passes
# (DIR/time-BUILD-PASS.csv); then ncu of V's residual block at 4096 and attention at 256 (fp16).
# call2: ab.sh V call2; call3: ab.sh V2 call3.
cd "$(dirname "$0")"
V=$1; C=../../../.device-carry/s44; d=$2; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
fwd="--op attention,residual,residual_tee --dtype fp16,fp32"
bwd="--op attention_backward,residual_backward --dtype fp16"
for v in $V M; do
  for s in "$fwd" "$bwd"; do
    $C/rfb-$v $s --cols 32:262144,96,200 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out /tmp/c.csv > /dev/null 2>&1; echo "check $v rc=$?"; cat /tmp/c.csv >> $d/check-$v.csv
    $C/rfb-$v $s --cols 33,100,1000,4097,40001 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out /tmp/c.csv > /dev/null 2>&1; echo "check misaligned $v rc=$?"; cat /tmp/c.csv >> $d/check-mis-$v.csv
  done
done
grep -c ',ok,' $d/check-$V.csv $d/check-mis-$V.csv; grep -v ',ok,\|,copy,\|,unfused,\|^device' $d/check-*.csv | head
for pass in 1 2 3; do for v in M $V; do
  for s in "$fwd" "$bwd"; do
    $C/rfb-$v $s --cols 32:262144 --variant fused,copy --no-check --budget-ms 40 --format csv --out /tmp/t.csv > /dev/null 2>&1
    cat /tmp/t.csv >> $d/time-$v-$pass.csv
  done; echo "pass $pass $v $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
for c in "residual 4096" "attention 256" "residual_tee 4096"; do
  set -- $c; n=$1-$2
  timeout 100 ncu -k regex:register_kernel -s 2 -c 1 --section SpeedOfLight --section SourceCounters \
    --section LaunchStats --import-source yes -f -o /tmp/$n $C/rfb-$V --op $1 --dtype fp16 --cols $2 \
    --variant fused --no-check --reps 3 --budget-ms 1 > $d/$n.log 2>&1
  ncu -i /tmp/$n.ncu-rep --page source --csv --print-source sass > /tmp/$n-sass.csv 2>/dev/null
  python3 ../../experiments/sass_mix.py /tmp/$n-sass.csv 134217728 > $d/$n-mix-$V.txt 2>&1
  head -3 $d/$n-mix-$V.txt
done
tar czf $OUT/$d.tgz $d
