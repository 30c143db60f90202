#!/bin/bash
# call80a.sh: on the device, M80 (main at f540598) against V80a (the residual block's staged rows
# read back at 40960-131072 columns with phased kernels, its register rows for phased plans alone
# gone) and V80b (V80a with the warp's draws on staged phased rows of 5-6 packs a thread), the
# residual block and its tee'd form, fp16 and bf16, off the grid at 10001-120001 and on it at
# 40960 / 65536 / 98304. Carry .device-carry/s80.
cd "$(dirname "$0")"; R=$PWD/../../..
OPS=residual,residual_tee DTYPES=fp16,bf16 AL=40960,65536,98304 \
  MIS=10001,33001,36001,40001,41001,50001,65001,90001,100003,120001 \
  bash ../2026-12-02-fifty-fourth/run1.sh call80a $R/.device-carry/s80 M80 V80a V80b
