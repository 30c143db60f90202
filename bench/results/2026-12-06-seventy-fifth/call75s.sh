#!/bin/bash
# call75s.sh: on the device, the GPU suites built at 9823b59 (V98, V100; build/device-slim, the
# device preset for sm_90 SASS, stripped) carried in .device-carry/t75s, under ctest by
# ../2026-12-06-seventy-third/call73s.sh; ctest -V's log in $OUT/ctest75.log.
cd "$(dirname "$0")"
JOBS=${JOBS:-6} SUITES=$PWD/../../../.device-carry/t75s LOG=ctest75 exec bash ../2026-12-06-seventy-third/call73s.sh
