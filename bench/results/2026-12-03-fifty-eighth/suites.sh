#!/bin/bash
# suites.sh: gpu.phased_rows, gpu.norm_numerics and gpu.norm_shapes_layernorm built from the kept
# tree (24284f6; SASS sm_90, stripped), carried in .device-carry/s58t, under ctest on the device.
cd "$(dirname "$0")"
GROUP=s58t bash ../2026-12-01-forty-fifth/suites.sh suites 2>&1 | tail -12
