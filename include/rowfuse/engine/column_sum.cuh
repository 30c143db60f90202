// The second step of a deterministic sum over rows (the norm backward's dgamma and dbeta): the
// per-chunk partial rows the engines wrote ([chunks, cols], op/norm_backward.cuh) summed per
// column in an order fixed by the shape alone.
#pragma once

#include "../detail/config.hpp"

namespace rowfuse::engine {

/// Independent running sums a thread keeps over its chunks, so that that many loads are in
/// flight per thread instead of one dependent add after another: part of the summation order.
inline constexpr int column_sum_chains = 8;

/// The most warps a block of column_sum_kernel has (its template argument).
inline constexpr int column_sum_max_warps = 32;

/// The matrices one launch of column_sum_kernel sums, one a z-index of its grid: up to two (the
/// norms' dgamma and dbeta partials), each [chunks, cols] at `partials[z]` summed into `out[z]`.
struct column_sum_jobs {
  static constexpr int max_jobs = 2;
  float const* partials[max_jobs];
  float* out[max_jobs];
};

/// A sum over the chunks of a slice: out[s * cols + c] = sum of partials[k * cols + c] over the
/// chunks k of slice s = blockIdx.y, [s * slice_chunks, min(chunks, (s + 1) * slice_chunks)), for
/// the matrix blockIdx.z of `jobs`. Blocks of W = blockDim.x / 32 warps, a power of two up to
/// MaxWarps: block x takes columns 32 x .. 32 x + 31, lane l of warp w column 32 x + l
/// over the slice's chunks w, w + W, w + 2 W, ... from its first (coalesced: a warp reads 128
/// consecutive bytes a chunk), the j-th of them into running sum j % column_sum_chains; the chains
/// are added in a fixed tree, then the warps' sums of each column in a tree of log2(W) levels
/// (warp w adds warp w + h's for h = W / 2, ..., 1). The order depends on k, c, slice_chunks and
/// W only: the same bits on any grid. One slice sums every chunk; several give partial sums a
/// second launch of one slice adds (dispatch/column_sum.cuh), so that narrow rows of many chunks
/// still fill the GPU. Compiled for a full SM of blocks of MaxWarps warps (32 registers at 32).
template <int MaxWarps>
__global__ void __launch_bounds__(32 * MaxWarps, 2048 / (32 * MaxWarps))
    column_sum_kernel(column_sum_jobs jobs, index_t chunks, index_t cols, index_t slice_chunks) {
  constexpr int chains = column_sum_chains;
  static_assert(chains == 8, "the tree below adds eight chains");
  static_assert(column_sum_jobs::max_jobs == 2, "a block picks its matrix by a select");
  __shared__ float warp_sums[MaxWarps][32];
  // Selected, not indexed: an index into a kernel parameter copies the array to local memory.
  float const* const partials = blockIdx.z == 0 ? jobs.partials[0] : jobs.partials[1];
  float* const out = blockIdx.z == 0 ? jobs.out[0] : jobs.out[1];
  int const warps = int(blockDim.x) / 32;
  int const lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  index_t const first = index_t(blockIdx.y) * slice_chunks;
  index_t const end = first + slice_chunks < chunks ? first + slice_chunks : chunks;
  for (index_t c0 = index_t(blockIdx.x) * 32; c0 < cols; c0 += index_t(gridDim.x) * 32) {
    index_t const c = c0 + lane;
    float sum[chains] = {};
    if (c < cols) {
      index_t k = first + warp;
      for (; k + (chains - 1) * warps < end; k += chains * warps)
        ROWFUSE_UNROLL
      for (int j = 0; j < chains; ++j)
        sum[j] += partials[(k + j * warps) * cols + c];
      ROWFUSE_UNROLL
      for (int j = 0; j < chains - 1; ++j)
        if (k + j * warps < end)
          sum[j] += partials[(k + j * warps) * cols + c];
    }
    warp_sums[warp][lane] =
        ((sum[0] + sum[1]) + (sum[2] + sum[3])) + ((sum[4] + sum[5]) + (sum[6] + sum[7]));
    __syncthreads();
    for (int half = warps / 2; half > 0; half /= 2) {
      if (warp < half)
        warp_sums[warp][lane] += warp_sums[warp + half][lane];
      __syncthreads();
    }
    if (warp == 0 && c < cols)
      out[index_t(blockIdx.y) * cols + c] = warp_sums[0][lane];
    __syncthreads(); // the next columns' sums overwrite warp_sums
  }
}

} // namespace rowfuse::engine
