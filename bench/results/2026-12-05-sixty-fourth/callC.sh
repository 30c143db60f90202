#!/bin/bash
# callC.sh: on the device, with .device-carry/s64 carried (pack-carry.sh): A2 against main first
# (../2026-12-04-sixty-second/callA2.sh, GROUP=s64x), then the carried GPU suites (callS.sh s64s,
# PER_S seconds each), each result under $OUT as it comes.
R=$(cd "$(dirname "$0")/../../.." && pwd); C=$R/.device-carry
mkdir -p $C/s64x && tar xJf $C/s64/a2.tar.xz -C $C/s64x --strip-components=1
tar xJf $C/s64/suites.tar.xz -C $C
GROUP=s64x bash $R/bench/results/2026-12-04-sixty-second/callA2.sh callA2 2>&1 | tail -60 > $OUT/callA2.txt
cat $OUT/callA2.txt
PER_S=${PER_S:-200} bash $R/bench/results/2026-12-05-sixty-third/callS.sh s64s
