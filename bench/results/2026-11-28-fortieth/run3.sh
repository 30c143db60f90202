#!/bin/bash
# On the device: base, W1, N2 and NW (checked in call2) timed interleaved at 2^27 elements a case,
# two passes (the device time left allowed two); everything goes back as one tarball.
cd "$(dirname "$0")"
d=call3; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward,residual_backward
cols=32:65536,96,160,200
types() { case $1 in N2) echo fp16;; *) echo fp16,fp32;; esac; }
for pass in 1 2; do for v in base W1 N2 NW; do
  ./rfb-$v --op $ops --dtype $(types $v) --cols $cols --variant fused,copy --no-check --budget-ms 60 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
  tar czf $OUT/$d.tgz $d
done; done
python3 table.py $d base W1 > $d/table-W1.txt
python3 table.py $d base N2 NW > $d/table-N.txt
tar czf $OUT/$d.tgz $d
