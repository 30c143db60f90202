// The streaming engines: one block per row, threads loop over the row in strides, so any width
// works.
//
//  - block_smem:     the first pass keeps each transformed value (fp32) in shared memory, the
//                    second pass finishes from there: one global read, one write.
//  - block_uncached: for rows past shared memory, the second pass reads global memory (and
//                    runs the load chain) again; tee writes happen only on that pass.
//
// The transformed row is cached rather than the raw input so that operands of the load chain
// (a residual, a mask) are read once, as counted; the price is 4 bytes a column of shared
// memory, which caps block_smem at about 56K columns on Hopper. A gradient_op (common.cuh)
// caches its gradient's values too, 8 bytes a column; block_uncached loads both streams again
// on its second pass, where prepare's side effects happen (emit).
#pragma once

#include "../detail/config.hpp"
#include "../detail/vector_io.hpp"
#include "common.cuh"

namespace rowfuse::engine {

/// The streaming engines' compile-time shape. Whether the row is cached (block_smem) or read again
/// (block_uncached) is the launch's `cached` argument, the same for every thread: one kernel serves
/// both engines (two fewer kernels a pack width in every call; bench/NOTES.md, twenty-sixth
/// session, for what that cost and gained).
template <int N, int BlockThreads> struct streaming_config {
  static constexpr int pack = N;
  static constexpr int block_threads = BlockThreads;
  /// Packs each thread loads before it uses the first: 4 x 16 bytes per thread keeps ~32 KB
  /// in flight per 512-thread block, the order of what Hopper needs per SM to hide latency.
  static constexpr int unroll = 4;
};

/// The fp32 caches block_smem keeps a row in: the input's values, and a gradient_op's gradient
/// values after them (engine/common.cuh).
template <class Op> inline constexpr int cached_streams = gradient_op<Op> ? 2 : 1;

template <class Config, class Op, class Load, class Store>
__global__ void __launch_bounds__(Config::block_threads)
    streaming_kernel(Op op, Load load, Store store, index_t rows, index_t cols, bool cached) {
  constexpr bool two_streams = gradient_op<Op>;
  // Two streams load half the packs of each per step: the same bytes in flight, and no spills
  // (ptxas, sm_90: 220 bytes spilled at the full unroll for an fp16 softmax backward).
  constexpr int pack_width = Config::pack, block_threads = Config::block_threads,
                unroll = two_streams ? Config::unroll / 2 : Config::unroll;
  using partial = typename Op::partial;
  __shared__ typename block_reducer<Op, block_threads>::TempStorage shared;
  extern __shared__ float4 dynamic_shared[];
  float* const cache = reinterpret_cast<float*>(dynamic_shared);
  [[maybe_unused]] float* const gradient_cache = cache + cols;

  store_context<float> store_ctx{cols, 0.0f};
  index_t const stride = index_t(block_threads) * pack_width;

  // Rows blockIdx.x, + gridDim.x, ...; an ordered_rows_op's chunks instead, each by one block in
  // row order (common.cuh, chunk_walk), whose rows increase with the step: the loop ends at the
  // first row past the last.
  [[maybe_unused]] chunk_walk walk{};
  [[maybe_unused]] index_t step = 0;
  if constexpr (ordered_rows_op<Op>)
    walk = chunk_walk{blockIdx.x, gridDim.x, op.chunk_log2()};
  auto const next_row = [&](index_t row) {
    if constexpr (ordered_rows_op<Op>)
      return walk.row(++step);
    else
      return row + gridDim.x;
  };
  for (index_t row = ordered_rows_op<Op> ? walk.row(0) : index_t(blockIdx.x); row < rows;
       row = next_row(row)) {
    // Pass 1: statistics (and the cache).
    load_context stats_ctx{cached, cols};
    partial part = op.identity();
    for (index_t base = index_t(threadIdx.x) * pack_width; base < cols; base += stride * unroll) {
      float x[unroll][pack_width];
      [[maybe_unused]] float g[two_streams ? unroll : 1][pack_width];
      ROWFUSE_UNROLL
      for (int u = 0; u < unroll; ++u) {
        index_t const col0 = base + u * stride;
        if (col0 < cols) {
          if constexpr (two_streams)
            load_pair<pack_width>(op, load, row, col0, x[u], g[u], stats_ctx);
          else
            load.template load<pack_width>(row, col0, x[u], stats_ctx);
        }
      }
      ROWFUSE_UNROLL
      for (int u = 0; u < unroll; ++u) {
        index_t const col0 = base + u * stride;
        if (col0 < cols) {
          if constexpr (two_streams)
            part = op.merge(part, op.local(x[u], g[u], pack_width));
          else
            part = op.merge(part, op.local(x[u], pack_width));
          if (cached) {
            detail::store_pack<pack_width>(cache + col0, x[u]);
            if constexpr (two_streams)
              detail::store_pack<pack_width>(gradient_cache + col0, g[u]);
          }
        }
      }
    }
    part = block_reducer<Op, block_threads>{shared}(op, part);
    auto const stats = op.finalize(part, cols);
    if (threadIdx.x == 0)
      op.save(row, stats);

    // Pass 2: outputs. Each thread reads back only what it cached itself.
    load_context output_ctx{true, cols};
    for (index_t base = index_t(threadIdx.x) * pack_width; base < cols; base += stride * unroll) {
      float y[unroll][pack_width];
      [[maybe_unused]] float g[two_streams ? unroll : 1][pack_width];
      ROWFUSE_UNROLL
      for (int u = 0; u < unroll; ++u) {
        index_t const col0 = base + u * stride;
        if (col0 < cols) {
          if (cached) {
            detail::load_pack<pack_width>(cache + col0, y[u]);
            if constexpr (two_streams)
              detail::load_pack<pack_width>(gradient_cache + col0, g[u]);
          } else if constexpr (two_streams) {
            load_pair<pack_width>(op, load, row, col0, y[u], g[u], output_ctx);
          } else {
            load.template load<pack_width>(row, col0, y[u], output_ctx);
          }
        }
      }
      ROWFUSE_UNROLL
      for (int u = 0; u < unroll; ++u) {
        index_t const col0 = base + u * stride;
        if (col0 < cols) {
          if constexpr (two_streams)
            op.template finish<pack_width>(y[u], g[u], stats, row, col0);
          else
            op.template finish<pack_width>(y[u], stats, row, col0);
          store.template store<pack_width, masks_packs<Load>>(row, col0, y[u], store_ctx);
        }
      }
    }
  }
  flush_amax(store, store_ctx, &shared);
}

} // namespace rowfuse::engine
