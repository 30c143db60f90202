#!/bin/bash
# call76x.sh: on the device, the GPU suites built with VL, VL2 and VW together (the tree
# /work/var/s67/VLX, its build/device-slim, stripped: gpu.norm_shapes_layernorm,
# random_differential_layernorm and _softmax, cluster_engine) carried in .device-carry/t76x, under
# ctest by call76s.sh; log ctest76x.log.
cd "$(dirname "$0")"
SUITES=$PWD/../../../.device-carry/t76x LOG=ctest76x exec bash call76s.sh
