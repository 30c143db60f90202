#!/usr/bin/env bash
# Builds and runs tests/emulated/random_differential_host.cu: the random differential harness
# with each op replaced by an fp32 engine on the host (no GPU needed). Arguments go to the
# program (--seed S, --cases N, --case K). Needs the release build's librowfuse_runtime.a.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=build/release
[[ -f $build/librowfuse_runtime.a ]] ||
  { cmake --preset release >/dev/null && cmake --build $build --target rowfuse_runtime; }
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
"$nvcc" -std=c++20 --expt-relaxed-constexpr --extended-lambda -O1 -arch=sm_90 \
  -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP -Iinclude \
  tests/emulated/random_differential_host.cu "$build/librowfuse_runtime.a" \
  -o "$build/random_differential_host"
"$build/random_differential_host" "$@"
