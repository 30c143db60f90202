// Experiment (not part of the build): instantiates every forward op's kernels for one input type,
// so that ptxas -v reports each register kernel's registers and spills, its phased twin beside it
// (phased_audit.py reads the report).
//   nvcc -std=c++20 -arch=sm_90 -O3 -DNDEBUG --expt-relaxed-constexpr --extended-lambda -Iinclude \
//     -DAUDIT_ELEMENT=__half -Xptxas -v -c bench/experiments/phased_audit.cu -o /dev/null \
//     2> /tmp/ptxas.txt && python3 bench/experiments/phased_audit.py /tmp/ptxas.txt
// AUDIT_ELEMENT: float, __half or __nv_bfloat16. A TU of the bench's pipelines
// (build/.../bench/generated/pipelines_fp16.cu, with its compile flags and -Xptxas -v) gives the
// pipelines' kernels the same way.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <rowfuse/rowfuse.cuh>

#ifndef AUDIT_ELEMENT
#define AUDIT_ELEMENT __half
#endif

namespace rf = rowfuse;
using element = AUDIT_ELEMENT;

void every_forward_op(element const* x, element* y, element const* gamma, element const* beta,
                      rf::index_t rows, rf::index_t cols, rf::index_t ld, cudaStream_t stream) {
  auto const load = rf::load(x, rows, cols, ld);
  auto const store = rf::store(y, ld);
  rf::softmax(load, store, stream);
  rf::log_softmax(load, store, stream);
  rf::layernorm(load, store, rf::affine(gamma, beta), 1e-5f, stream);
  rf::rmsnorm(load, store, rf::affine(gamma), 1e-6f, stream);
}
