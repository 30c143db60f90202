#!/bin/bash
# run3.sh GROUP: on the device, the GPU suites of .device-carry/GROUP (built on the development
# machine from main at the commit README.md names, SASS sm_90, stripped) under ctest
# (../2026-12-01-forty-fifth/suites.sh), as call3-GROUP/.
cd "$(dirname "$0")/../2026-12-01-forty-fifth" && GROUP=$1 bash suites.sh call3-$1
