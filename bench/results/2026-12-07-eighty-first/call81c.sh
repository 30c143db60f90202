#!/bin/bash
# call81c.sh: on the device, F80d / V81d (carry .device-carry/s81c): V81a on the phased kernels of
# the rows of four packs a thread read back too (the tee'd block at 16385-32768 on the 32768-column
# row, both blocks at 49153-65536 on the 65536-column row), one element off, and on the grid again;
# then the GPU suites built with main's candidate (V81d's engine, V80g's row, the warp's draws to
# seven packs; carry .device-carry/t81) under ctest: gpu.phased_rows' residual block case,
# norm_fused, determinism, random_differential_layernorm.
cd "$(dirname "$0")"; R=$PWD/../../..
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date +%T
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=32768,65536,131072 MIS=20001,24577,32767,50001,57001,65001 \
  PASSES=2 bash ../2026-12-02-fifty-fourth/run1.sh call81c $R/.device-carry/s81c F80d V81d 2>&1 | tail -40
date +%T
SUITES=$R/.device-carry/t81 LOG=ctest81 bash ../2026-12-07-seventy-seventh/call77s.sh
