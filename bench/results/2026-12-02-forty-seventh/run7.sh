#!/bin/bash
# run7.sh: on the device, the layernorm GPU suites built from main with layernorm's rows
# (.device-carry/s47t-c) as call7-suites/; row_shapes.cu round 43 (.device-carry/r43), two passes,
# as call7/; both as tgz under $OUT.
cd "$(dirname "$0")"; C=../../../.device-carry/r43; d=call7; mkdir -p $d
for p in 1 10 3 3 10 1; do
  pass=1; [ -f $d/time$p-1.txt ] && pass=2
  $C/r$p > $d/time$p-$pass.txt 2>&1; echo "r$p pass $pass rc=$? $(date +%T)"
done
tar czf $OUT/$d.tgz $d
cd ../2026-12-01-forty-fifth && GROUP=s47t-c bash suites.sh call7-suites
