#!/bin/bash
# run8.sh: on the device, main's pipelines (PM, 17a2964) against PIPELINE_SHAPES_BETWEEN's rows
# (P), fp16 / bf16, at 32-8192 columns and the widths between (ab.sh), as call8/; the two builds
# gzipped, so that they and the tree fit one call's 64 MiB.
cd "$(dirname "$0")" && ./ab.sh call8 ../../../.device-carry/s48pz/rfb.tgz PM P \
  attention,residual,residual_tee,layernorm_fp8 fp16,bf16 \
  32:8192,200,264,320,384,448,600,640,648,2056,2304,2560,2568,3000,3072,3080,4104,4608,5120,5128,6144,6152 \
  33,265,385,601,2057,3001,4105,6145,10249
