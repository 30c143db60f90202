#!/bin/bash
# suites2.sh: gpu.phased_rows built from 494ec7d (the review's host-side mend), carried in
# .device-carry/s58t, under ctest on the device.
cd "$(dirname "$0")"
GROUP=s58t bash ../2026-12-01-forty-fifth/suites.sh suites2 2>&1 | tail -8
