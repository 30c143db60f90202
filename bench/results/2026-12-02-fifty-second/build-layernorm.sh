#!/bin/bash
# build-layernorm.sh V: slim rowfuse-bench of layernorm alone, fp16 and bf16, from the tree
# /work/var/$GROUP/V (../2026-12-01-forty-fifth/build-variant.sh with a translation unit of the one
# op, a quarter of the ops' objects, so that four builds travel in one call): writes
# .device-carry/$GROUP/rfb-V.
set -e
T=/work/var/${GROUP:?}/$1
for t in fp16:__half bf16:__nv_bfloat16; do
  cat > $T/bench/layernorm_${t%%:*}.cu <<TU
// layernorm alone, for ${t%%:*} (bench/ops.cuh's family, one row of it).
#include "ops.cuh"
static bench::registrar const registered{std::vector<bench::variant>{
    {"layernorm", bench::dtype_of<${t#*:}>, bench::dtype_of<${t#*:}>, 2.0 * sizeof(${t#*:}),
     bench::ops::layernorm_fused<${t#*:}>, bench::ops::layernorm_unfused<${t#*:}>,
     bench::tolerances::of_order_one(bench::dtype_of<${t#*:}>)}}};
TU
done
SOURCES=$T/bench bash "$(dirname "$0")/../2026-12-01-forty-fifth/build-variant.sh" $1 layernorm fp16,bf16
