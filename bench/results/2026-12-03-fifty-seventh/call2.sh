#!/bin/bash
# call2.sh: call1 (M against V), then the GPU suites built from V's tree (.device-carry/s57t).
cd "$(dirname "$0")"
bash call1.sh 2>&1 | tail -70
mkdir -p ../../../.device-carry/s57t && tar xJf ../../../.device-carry/s57/tests.txz -C ../../../.device-carry/s57t
GROUP=s57t bash ../2026-12-01-forty-fifth/suites.sh v-suites 2>&1 | tail -12
