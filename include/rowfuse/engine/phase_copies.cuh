// The kernel that fills a per-column operand's copies at each phase of the pack grid
// (detail::phase_copies); dispatch/phase_copies.cuh launches it.
#pragma once

#include "../detail/config.hpp"

namespace rowfuse::engine {

/// For s = 0 .. N-1 and each column c: gamma_copies[s * stride + c + s] = gamma[c], and the same
/// for beta where it is given (beta null: beta_copies untouched). A thread a column, its N stores
/// of each copy coalesced with its neighbours': N * cols elements of each, a few microseconds
/// beside the rows that read them.
template <int N, class G, class B>
__global__ void copy_at_phases_kernel(G const* gamma, G* gamma_copies, B const* beta,
                                      B* beta_copies, index_t cols, index_t stride) {
  for (index_t col = index_t(blockIdx.x) * blockDim.x + threadIdx.x; col < cols;
       col += index_t(gridDim.x) * blockDim.x) {
    G const g = gamma[col];
    ROWFUSE_UNROLL
    for (int shift = 0; shift < N; ++shift)
      gamma_copies[shift * (stride + 1) + col] = g;
    if (beta != nullptr) {
      B const b = beta[col];
      ROWFUSE_UNROLL
      for (int shift = 0; shift < N; ++shift)
        beta_copies[shift * (stride + 1) + col] = b;
    }
  }
}

} // namespace rowfuse::engine
