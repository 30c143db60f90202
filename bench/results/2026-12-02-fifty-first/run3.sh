#!/bin/bash
# run3.sh GROUP: on the device, the GPU suites of .device-carry/GROUP (built on the development
# machine from main with this session's engine change, SASS sm_90, stripped) under ctest
# (../2026-12-01-forty-fifth/suites.sh), as GROUP.tgz under $OUT.
cd "$(dirname "$0")/../2026-12-01-forty-fifth" && GROUP=$1 bash suites.sh $1
