// The second step of a deterministic sum over rows (the norm backward's dgamma and dbeta): the
// per-chunk partial rows the engines wrote ([chunks, cols], op/norm_backward.cuh) summed per
// column in an order fixed by the chunk index alone.
#pragma once

#include "../detail/config.hpp"

namespace rowfuse::engine {

/// out[c] = sum over k of partials[k * cols + c], with blocks of `Warps` warps (launched as
/// column_sum_kernel<8>): block b takes columns 32 b .. 32 b + 31, lane l of warp w column
/// 32 b + l over the chunks w, w + Warps, w + 2 Warps, ... in increasing order (coalesced: a warp
/// reads 128 consecutive bytes a chunk), then warp 0 adds the warps' sums of each column in warp
/// order. The order depends on k, c and Warps only: the same bits on any grid.
template <int Warps>
__global__ void __launch_bounds__(32 * Warps)
    column_sum_kernel(float const* partials, index_t chunks, index_t cols, float* out) {
  constexpr int column_sum_warps = Warps;
  __shared__ float warp_sums[column_sum_warps][32];
  int const lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  for (index_t c0 = index_t(blockIdx.x) * 32; c0 < cols; c0 += index_t(gridDim.x) * 32) {
    index_t const c = c0 + lane;
    float sum = 0.0f;
    if (c < cols)
      for (index_t k = warp; k < chunks; k += column_sum_warps)
        sum += partials[k * cols + c];
    warp_sums[warp][lane] = sum;
    __syncthreads();
    if (warp == 0 && c < cols) {
      float total = warp_sums[0][lane];
      ROWFUSE_UNROLL
      for (int w = 1; w < column_sum_warps; ++w)
        total += warp_sums[w][lane];
      out[c] = total;
    }
    __syncthreads(); // the next columns' sums overwrite warp_sums
  }
}

} // namespace rowfuse::engine
