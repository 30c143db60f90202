#!/bin/bash
# run1.sh NAME CARRY BASE V...: on the device, OPS (default: the norms, softmax as a control and
# the pipelines that read gamma, beta or a bias) in DTYPES (fp16) from the slim rowfuse-bench
# builds CARRY/rfb-BASE and CARRY/rfb-V..., off the grid (--misalign: every view one element off,
# ld = cols + 1) at MIS widths and aligned at AL widths: every build checked against unfused
# (2^24 elements), then all timed interleaved, PASSES (2) passes; NAME.tgz under $OUT and the
# tables (../2026-12-01-forty-fifth/table.py) of BASE-mis V-mis ... and BASE-al V-al ...
cd "$(dirname "$0")"; name=$1; d=/tmp/$1; C=$2; shift 2; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
MIS=${MIS:-136,200,300,1000,2047,3000,4097,8191,16383,32767,100003}
AL=${AL:-300,1000,4096}
op="--op ${OPS:-softmax,rmsnorm,layernorm,layernorm_fp8,residual,residual_tee} --dtype ${DTYPES:-fp16}"
for v in "$@"; do
  $C/rfb-$v $op --cols $AL --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-al-$v.csv > $d/check-al-$v.log 2>&1
  $C/rfb-$v $op --cols $MIS --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$v.csv > $d/check-mis-$v.log 2>&1
  tail -qn1 $d/check-al-$v.log $d/check-mis-$v.log
done
for pass in $(seq 1 ${PASSES:-2}); do for v in "$@"; do
  $C/rfb-$v $op --cols $AL --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-al-$pass.csv > /dev/null 2>&1
  $C/rfb-$v $op --cols $MIS --variant fused,copy --no-check --budget-ms 30 --misalign --format csv --out $d/time-$v-mis-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$?"
done; done
tar czf $OUT/$name.tgz -C /tmp $name
python3 ../2026-12-01-forty-fifth/table.py $d $(for v in "$@"; do echo $v-mis; done)
python3 ../2026-12-01-forty-fifth/table.py $d $(for v in "$@"; do echo $v-al; done)
