#!/bin/bash
# call74t.sh: call74s.sh's suites but gpu.phased_rows (four minutes; too long for the device time
# left), carried in .device-carry/t74t; ctest -V's log in $OUT/ctest74t.log.
cd "$(dirname "$0")"
SUITES=$PWD/../../../.device-carry/t74t LOG=ctest74t exec bash ../2026-12-06-seventy-third/call73s.sh
