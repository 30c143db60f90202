#!/bin/bash
# call82a.sh: on the device, F81b / V82a / V82b (carry .device-carry/s82): the residual blocks one
# element off past 131072 columns, where V82a adds rows for phased plans alone at 163840, 196608
# and 229376 (5, 6 and 7 packs of 512 in clusters of eight) and V82b the same widths in blocks of
# 256 in clusters of sixteen, two an SM; on the grid at 131072 / 262144. Then the GPU suites built
# from F81b (carry .device-carry/t82) under ctest: gpu.phased_rows' residual block case,
# norm_fused, determinism, random_differential_layernorm.
cd "$(dirname "$0")"; R=$PWD/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date +%T
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=131072,262144 \
  MIS=131073,140001,150001,163839,170001,196607,200003,220001,229375,240001,262143 \
  PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call82a $R/.device-carry/s82 F81b V82a V82b 2>&1 | tail -60
date +%T
SUITES=$R/.device-carry/${T82:-t82} LOG=ctest82 bash ../2026-12-07-seventy-seventh/call77s.sh
