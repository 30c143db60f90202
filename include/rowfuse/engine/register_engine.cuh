// The register engines: a row lives in the registers of the threads that share it, is read
// once, reduced, and written once.
//
//  - warp_rows:  a group of 1-32 lanes per row (a runtime power of two), several rows per warp
//                for narrow rows, butterfly shuffles within the group;
//  - block_rows: a whole block per row, CUB BlockReduce across its warps.
//
// Thread `lane` of a row's group holds packs p = 0 .. Packs-1 at columns
// (p * group + lane) * N .. +N: consecutive lanes touch consecutive 16-byte pieces (coalesced),
// and a lane's valid packs are a prefix, which the op's `local` takes as a count.
#pragma once

#include "../detail/config.hpp"
#include "common.cuh"

namespace rowfuse::engine {

template <int N, int Packs, int BlockThreads, bool WholeBlock>
struct register_config {
  static constexpr int pack = N;
  static constexpr int packs = Packs;
  static constexpr int block_threads = BlockThreads;
  static constexpr bool whole_block = WholeBlock;
};

/// One launch: rows `first, first + step, ...` of the op. `group_log2` is log2 of the lanes per
/// row for warp_rows (ignored for block_rows).
template <class Config, class Op, class Load, class Store>
__global__ void __launch_bounds__(Config::block_threads)
    register_kernel(Op op, Load load, Store store, index_t rows, index_t cols, int group_log2) {
  constexpr int N = Config::pack, P = Config::packs, B = Config::block_threads;
  using partial = typename Op::partial;
  __shared__ typename block_reducer<Op, B>::TempStorage shared;

  int const group = Config::whole_block ? B : 1 << group_log2;
  int const lane = Config::whole_block ? int(threadIdx.x) : int(threadIdx.x) & (group - 1);
  int const rows_per_block = B / group;
  index_t const row_step = index_t(gridDim.x) * rows_per_block;

  load_context load_ctx{true};
  store_context<float> store_ctx{cols, 0.0f};

  // The loop bound is the same for the whole block, so every shuffle and barrier is uniform.
  for (index_t first = index_t(blockIdx.x) * rows_per_block; first < rows; first += row_step) {
    index_t const row = first + int(threadIdx.x) / group;
    bool const row_ok = row < rows;

    // Issue every load of the row before any arithmetic depends on one.
    float v[P * N];
    int valid_packs = 0;
    ROWFUSE_UNROLL
    for (int p = 0; p < P; ++p) {
      index_t const col0 = (index_t(p) * group + lane) * N;
      if (row_ok && col0 < cols) {
        float x[N];
        load.template load<N>(row, col0, x, load_ctx);
        ROWFUSE_UNROLL
        for (int j = 0; j < N; ++j) v[p * N + j] = x[j];
        valid_packs = p + 1;
      } else {
        ROWFUSE_UNROLL
        for (int j = 0; j < N; ++j) v[p * N + j] = 0.0f;
      }
    }

    // Ops that can (softmax) rewrite v into a form that finishes without a second exp.
    constexpr bool in_place = Op::local_in_place_available;
    partial own;
    if constexpr (in_place) own = op.local_in_place(v, valid_packs * N);
    else own = op.local(v, valid_packs * N);
    partial part = own;
    if constexpr (Config::whole_block) part = block_reducer<Op, B>{shared}(op, part);
    else part = reduce_in_group(op, part, group);
    auto const stats = op.finalize(part, cols);
    if (row_ok && lane == 0) op.save(row, stats);

    ROWFUSE_UNROLL
    for (int p = 0; p < P; ++p) {
      if (p < valid_packs) {
        index_t const col0 = (index_t(p) * group + lane) * N;
        float y[N];
        ROWFUSE_UNROLL
        for (int j = 0; j < N; ++j) y[j] = v[p * N + j];
        if constexpr (in_place) op.template finish_in_place<N>(y, stats, own, row, col0);
        else op.template finish<N>(y, stats, row, col0);
        store.template store<N>(row, col0, y, store_ctx);
      }
    }
  }
  flush_amax(store, store_ctx);
}

}  // namespace rowfuse::engine
