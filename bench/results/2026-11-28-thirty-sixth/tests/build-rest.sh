#!/bin/bash
# On the device: the GPU suites not run earlier this session (but the seven whose units take over
# 400 s of one core) and the examples, SASS for sm_90 at full optimisation, into build/dev (kept
# between calls on a warm machine).
cmake -S . -B build/dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DROWFUSE_GPU_TESTS_PTX_ONLY=OFF -DROWFUSE_GPU_TESTS_FAST_COMPILE=OFF > /tmp/configure.log 2>&1 || { tail -20 /tmp/configure.log; exit 1; }
targets=""
for s in backward_norm backward_softmax bad_input bad_input_backward collective_dropout collective_norm collective_online collective_softmax dropout_warp_draws family_dropout family_dropout_cast family_plain norm_shapes_rmsnorm phased_rows precision_edges random_differential_rmsnorm random_differential_rmsnorm_cast smoke softmax_shapes threads_streams; do targets="$targets gpu_$s"; done
for e in attention_backward attention_microkernel attention_probabilities prenorm_residual rmsnorm_zero_centered softmax_family user_transform; do targets="$targets example_$e"; done
timeout ${1:-540} cmake --build build/dev -j 16 --target $targets > /tmp/build.log 2>&1
echo "build rc=$? $(grep -c 'Linking' /tmp/build.log) linked"
ls build/dev/tests/gpu_* build/dev/examples/example_* 2>/dev/null | wc -l
