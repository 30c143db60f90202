// The second step of a deterministic sum over rows (the norm backward's dgamma and dbeta): the
// per-chunk partial rows the engines wrote ([chunks, cols], op/norm_backward.cuh) summed per
// column in an order fixed by the shape alone.
#pragma once

#include "../detail/config.hpp"

namespace rowfuse::engine {

/// Independent running sums a thread keeps over its chunks, so that that many loads are in
/// flight per thread instead of one dependent add after another: part of the summation order.
inline constexpr int column_sum_chains = 8;

/// A sum over the chunks of a slice: out[s * cols + c] = sum of partials[k * cols + c] over the
/// chunks k of slice s = blockIdx.y, [s * slice_chunks, min(chunks, (s + 1) * slice_chunks)).
/// Blocks of `Warps` warps: block x takes columns 32 x .. 32 x + 31, lane l of warp w column
/// 32 x + l over the slice's chunks w, w + Warps, w + 2 Warps, ... from its first (coalesced: a
/// warp reads 128 consecutive bytes a chunk), the j-th of them into running sum
/// j % column_sum_chains; the chains are added in a fixed tree, then warp 0 adds the warps' sums
/// of each column in warp order. The order depends on k, c, slice_chunks and Warps only: the same
/// bits on any grid. One slice sums every chunk; several give partial sums a second launch of one
/// slice adds (dispatch/column_sum.cuh), so that narrow rows of many chunks still fill the GPU.
template <int Warps>
__global__ void __launch_bounds__(32 * Warps)
    column_sum_kernel(float const* partials, index_t chunks, index_t cols, index_t slice_chunks,
                      float* out) {
  constexpr int chains = column_sum_chains;
  static_assert(chains == 8, "the tree below adds eight chains");
  __shared__ float warp_sums[Warps][32];
  int const lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  index_t const first = index_t(blockIdx.y) * slice_chunks;
  index_t const end = first + slice_chunks < chunks ? first + slice_chunks : chunks;
  for (index_t c0 = index_t(blockIdx.x) * 32; c0 < cols; c0 += index_t(gridDim.x) * 32) {
    index_t const c = c0 + lane;
    float sum[chains] = {};
    if (c < cols) {
      index_t k = first + warp;
      for (; k + (chains - 1) * Warps < end; k += chains * Warps)
        ROWFUSE_UNROLL
      for (int j = 0; j < chains; ++j)
        sum[j] += partials[(k + j * Warps) * cols + c];
      ROWFUSE_UNROLL
      for (int j = 0; j < chains - 1; ++j)
        if (k + j * Warps < end)
          sum[j] += partials[(k + j * Warps) * cols + c];
    }
    warp_sums[warp][lane] =
        ((sum[0] + sum[1]) + (sum[2] + sum[3])) + ((sum[4] + sum[5]) + (sum[6] + sum[7]));
    __syncthreads();
    if (warp == 0 && c < cols) {
      float total = warp_sums[0][lane];
      ROWFUSE_UNROLL
      for (int w = 1; w < Warps; ++w)
        total += warp_sums[w][lane];
      out[index_t(blockIdx.y) * cols + c] = total;
    }
    __syncthreads(); // the next columns' sums overwrite warp_sums
  }
}

} // namespace rowfuse::engine
