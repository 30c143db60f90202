#!/bin/bash
# run8.sh GROUP: on the device, the GPU suites of .device-carry/GROUP (built on the development
# machine from main at 6db6622, SASS sm_90, stripped) under ctest
# (../2026-12-01-forty-fifth/suites.sh), as call8-GROUP/ in that folder, moved here after.
cd "$(dirname "$0")/../2026-12-01-forty-fifth" && GROUP=$1 bash suites.sh s50-$1
