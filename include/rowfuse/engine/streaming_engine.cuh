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
// memory, which caps block_smem at about 56K columns on Hopper.
#pragma once

#include "../detail/config.hpp"
#include "../detail/vector_io.hpp"
#include "common.cuh"

namespace rowfuse::engine {

template <int N, int BlockThreads, bool Cached> struct streaming_config {
  static constexpr int pack = N;
  static constexpr int block_threads = BlockThreads;
  static constexpr bool cached = Cached;
  /// Packs each thread loads before it uses the first: 4 x 16 bytes per thread keeps ~32 KB
  /// in flight per 512-thread block, the order of what Hopper needs per SM to hide latency.
  static constexpr int unroll = 4;
};

template <class Config, class Op, class Load, class Store>
__global__ void __launch_bounds__(Config::block_threads)
    streaming_kernel(Op op, Load load, Store store, index_t rows, index_t cols) {
  constexpr int N = Config::pack, B = Config::block_threads, U = Config::unroll;
  using partial = typename Op::partial;
  __shared__ typename block_reducer<Op, B>::TempStorage shared;
  extern __shared__ float4 dynamic_shared[];
  float* const cache = reinterpret_cast<float*>(dynamic_shared);

  store_context<float> store_ctx{cols, 0.0f};
  index_t const stride = index_t(B) * N;

  for (index_t row = blockIdx.x; row < rows; row += gridDim.x) {
    // Pass 1: statistics (and the cache).
    load_context stats_ctx{Config::cached, cols};
    partial part = op.identity();
    for (index_t base = index_t(threadIdx.x) * N; base < cols; base += stride * U) {
      float x[U][N];
      ROWFUSE_UNROLL
      for (int u = 0; u < U; ++u) {
        index_t const col0 = base + u * stride;
        if (col0 < cols)
          load.template load<N>(row, col0, x[u], stats_ctx);
      }
      ROWFUSE_UNROLL
      for (int u = 0; u < U; ++u) {
        index_t const col0 = base + u * stride;
        if (col0 < cols) {
          part = op.merge(part, op.local(x[u], N));
          if constexpr (Config::cached)
            detail::store_pack<N>(cache + col0, x[u]);
        }
      }
    }
    part = block_reducer<Op, B>{shared}(op, part);
    auto const stats = op.finalize(part, cols);
    if (threadIdx.x == 0)
      op.save(row, stats);

    // Pass 2: outputs. Each thread reads back only what it cached itself.
    load_context output_ctx{true, cols};
    for (index_t base = index_t(threadIdx.x) * N; base < cols; base += stride * U) {
      float y[U][N];
      ROWFUSE_UNROLL
      for (int u = 0; u < U; ++u) {
        index_t const col0 = base + u * stride;
        if (col0 < cols) {
          if constexpr (Config::cached)
            detail::load_pack<N>(cache + col0, y[u]);
          else
            load.template load<N>(row, col0, y[u], output_ctx);
        }
      }
      ROWFUSE_UNROLL
      for (int u = 0; u < U; ++u) {
        index_t const col0 = base + u * stride;
        if (col0 < cols) {
          op.template finish<N>(y[u], stats, row, col0);
          store.template store<N>(row, col0, y[u], store_ctx);
        }
      }
    }
  }
  flush_amax(store, store_ctx);
}

} // namespace rowfuse::engine
