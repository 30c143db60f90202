#!/bin/bash
# run9.sh GROUP DIR: on the device, the GPU suites of .device-carry/GROUP (built on the development
# machine from main at 17a2964, SASS sm_90, stripped), ../2026-12-01-forty-fifth/suites.sh as DIR/.
cd "$(dirname "$0")/../2026-12-01-forty-fifth" && GROUP=$1 bash suites.sh "$2"
