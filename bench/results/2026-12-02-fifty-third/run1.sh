#!/bin/bash
# run1.sh NAME CARRY BASE V...: on the device, the four ops (OPS) in fp16 (DTYPES) from the slim
# rowfuse-bench builds CARRY/rfb-BASE and CARRY/rfb-V..., on narrow rows (W: WIDTHS to change)
# aligned (ld = cols) and off the grid (--misalign: every view one element off, ld = cols + 1):
# every build checked against unfused both ways (2^24 elements), then all timed interleaved, two
# passes (PASSES); NAME as NAME.tgz under $OUT, and the tables (../2026-12-01-forty-fifth/table.py)
# of builds BASE-al V-al ... and BASE-mis V-mis ...
cd "$(dirname "$0")"; name=$1; d=/tmp/$1; C=$2; shift 2; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
W=${WIDTHS:-33,40,48,56,60,63,64,72,80,88,100,127,128,136,200,255,256,264,1000}
op="--op ${OPS:-softmax,log_softmax,rmsnorm,layernorm} --dtype ${DTYPES:-fp16}"
for v in "$@"; do
  $C/rfb-$v $op --cols $W --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-al-$v.csv > $d/check-al-$v.log 2>&1
  $C/rfb-$v $op --cols $W --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > $d/check-mis-$v.log 2>&1
  tail -qn1 $d/check-al-$v.log $d/check-mis-$v.log
done
for pass in $(seq 1 ${PASSES:-2}); do for v in "$@"; do
  $C/rfb-$v $op --cols $W --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-al-$pass.csv > /dev/null 2>&1
  $C/rfb-$v $op --cols $W --variant fused,copy --no-check --budget-ms 30 --misalign --format csv --out $d/time-$v-mis-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$?"
done; done
tar czf $OUT/$name.tgz -C /tmp $name
python3 ../2026-12-01-forty-fifth/table.py $d $(for v in "$@"; do echo $v-al; done)
python3 ../2026-12-01-forty-fifth/table.py $d $(for v in "$@"; do echo $v-mis; done)
