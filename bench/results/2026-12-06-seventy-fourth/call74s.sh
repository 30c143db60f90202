#!/bin/bash
# call74s.sh: on the device, the GPU suites carried in .device-carry/t74s (build/device-slim, the
# device preset for sm_90 SASS, stripped) under ctest, by the seventy-third session's call73s.sh;
# ctest -V's log in $OUT/ctest74.log.
cd "$(dirname "$0")"
SUITES=$PWD/../../../.device-carry/t74s LOG=ctest74 exec bash ../2026-12-06-seventy-third/call73s.sh
