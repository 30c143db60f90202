#!/bin/bash
# On the device: T (a probe, not for main: the register engine walks the norms' backward rows as
# the forward ops do, a block's groups on consecutive rows, instead of each group down its own
# chunk; dgamma / dbeta wrong, dx as before) checked at 2^24 elements, then timed against W1
# (main), layernorm and rmsnorm backward fp16 at 32-65536 and 96 columns, two passes.
cd "$(dirname "$0")"
d=call3; mkdir -p $d
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $d/device.txt
ops=layernorm_backward,rmsnorm_backward
./rfb-T --op $ops --dtype fp16 --cols 32:65536,96 --elems 16777216 --reps 1 --budget-ms 1 --format csv --out $d/check-T.csv > /dev/null 2>&1; echo "check T rc=$?"
for pass in 1 2; do for v in W1 T; do
  ./rfb-$v --op $ops --dtype fp16 --cols 32:65536,96 --variant fused,copy --no-check --budget-ms 50 --format csv --out $d/time-$v-$pass.csv > /dev/null 2>&1
  echo "pass $pass $v rc=$? $(date +%T)"
done; tar czf $OUT/$d.tgz $d; done
python3 table.py $d W1 T > $d/table.txt; cat $d/table.txt
tar czf $OUT/$d.tgz $d
