#!/bin/bash
# ab2.sh A B DIR: as ab.sh for the ops alone and the pipelines (fp16 / bf16, or DTYPES; OPS, and CARRY the
# folder of .device-carry/ that holds the builds, where not all of them): B checked against
# unfused (2^24 elements, aligned: 32-262144 and widths inside and at the edges of the rows for
# devices of wide memory; off the grid: 33-100003), then A and B timed interleaved, three passes;
# the whole folder as DIR.tgz under $OUT, table.py last.
cd "$(dirname "$0")"
A=$1; V=$2; C=../../../.device-carry/${CARRY:-s45}; d=$3; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
op="--op ${OPS:-softmax,log_softmax,layernorm,rmsnorm,attention,residual,residual_tee} --dtype ${DTYPES:-fp16,bf16}"
extra=${EXTRA:-200,264,384,2056,2560,3000,8200,10240,10248,12288,24584,28672,98312,114688,196616,229376}
$C/rfb-$V $op --cols 32:262144,$extra --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-$V.csv > $d/check-$V.log 2>&1; echo "check $V rc=$?"
$C/rfb-$V $op --cols 33,100,300,1000,4097,10249,24585,40001,100003 --elems 16777216 --reps 1 --budget-ms 1 --misalign --format csv --out $d/check-mis-$V.csv > $d/check-mis-$V.log 2>&1; echo "check misaligned $V rc=$?"
tail -n1 $d/check-$V.log $d/check-mis-$V.log
for pass in 1 2 3; do for v in $A $V; do
  $C/rfb-$v $op --cols 32:262144,$extra --variant fused,copy --no-check --budget-ms 30 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; done
tar czf $OUT/$d.tgz $d
python3 table.py $d $A $V | awk 'NR == 1 || $0 ~ /\(([+-]0\.0[2-9]|[+-]0\.[1-9])/'
