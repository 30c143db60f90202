#!/bin/bash
# run5.sh: on the device, layernorm fp32, main (W32: main with round 40's rows) against rounds 41-42's
# rows (WL32), ../2026-12-01-forty-fifth/ab2.sh as call5-ln32/; then the GPU suites built from main
# with round 40's rows (.device-carry/s47t-a: random_differential_softmax, softmax_shapes, smoke), ../2026-12-01-forty-fifth/suites.sh as call5-suites/.
cd "$(dirname "$0")/../2026-12-01-forty-fifth"
CARRY=s47c OPS=layernorm DTYPES=fp32 \
  EXTRA=8200,9216,10240,10248,12288,14336,24584,28672,32776,36864,40960,49160,53248,57344,65544,73728,81920,98312,106496,114688,131080,147456,163840 \
  ./ab2.sh W32 WL32 call5-ln32
GROUP=s47t-a bash suites.sh call5-suites
