#!/bin/bash
# call80d.sh: on the device, the GPU suites built at main after V80e's tee'd table went on it
# (.device-carry/t80d: gpu.phased_rows' residual block case, norm_fused, determinism,
# random_differential_layernorm, cluster_engine, threads_streams). Carry .device-carry/t80d.
cd "$(dirname "$0")"; R=$PWD/../../..
SUITES=$R/.device-carry/t80d LOG=ctest80d bash ../2026-12-07-seventy-seventh/call77s.sh
