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
//
// Tried and measured on the H200 (bench/NOTES.md, 2026-11-22), and left out: holding 2-4 rows
// per group at once, and prefetching the next row's packs into registers while the current
// one is reduced. Both raise registers a thread (36 -> 54-90 at 32 fp16 columns) and so cut
// occupancy; neither beat one row per group without prefetch (softmax 0.69-0.75 of copy
// against 0.74 at 32 columns; 0.69 against 0.71 at 2048).
#pragma once

#include <utility>

#include "../detail/async_copy.cuh"
#include "../detail/config.hpp"
#include "../detail/vector_io.hpp"
#include "../dispatch/tuning.hpp"
#include "common.cuh"

namespace rowfuse::engine {

/// `Staged`: the next row's packs of the input travel by cp.async into shared memory while the
/// current row is reduced, so a block keeps a row's bytes in flight through its arithmetic and
/// barriers; the load chain runs on the staged values. Packs of 4, 8 or 16 bytes only (for
/// others the flag is ignored). Two slots (one read while the other fills) up to
/// tuning::staging_two_slot_bytes, else one, refilled once the row is in registers.
template <int N, int Packs, int BlockThreads, bool WholeBlock, bool Staged = false>
struct register_config {
  static constexpr int pack = N;
  static constexpr int packs = Packs;
  static constexpr int block_threads = BlockThreads;
  static constexpr bool whole_block = WholeBlock;

  template <class T> static constexpr bool staged = Staged&& detail::async_copy_size_ok<T, N>;
  template <class T> static constexpr int slot_bytes = Packs* BlockThreads* N* int(sizeof(T));
  template <class T>
  static constexpr int staging_slots = !staged<T>                                            ? 0
                                       : 2 * slot_bytes<T> <= tuning::staging_two_slot_bytes ? 2
                                                                                             : 1;
  /// Dynamic shared memory of the staging slots, for input elements of type T.
  template <class T> static constexpr int staging_bytes = staging_slots<T>* slot_bytes<T>;
};

/// The block's shared memory for its reductions (only block_rows uses it).
template <class Op, int B, bool TwoPhase = two_phase_op<Op>> struct reduce_storage {
  typename block_allreduce<typename Op::partial, B>::TempStorage partials;
};
template <class Op, int B> struct reduce_storage<Op, B, true> {
  using first_t = decltype(std::declval<Op const&>().phase1(std::declval<float (&)[1]>(), 0));
  using second_t = decltype(std::declval<Op const&>().phase2(std::declval<float (&)[1]>(), 0,
                                                             std::declval<first_t>(), index_t(1)));
  typename block_allreduce<first_t, B>::TempStorage first;
  typename block_allreduce<second_t, B>::TempStorage second;
};

/// One launch: rows `first, first + step, ...` of the op. `group_log2` is log2 of the lanes per
/// row for warp_rows (ignored for block_rows).
template <class Config, class Op, class Load, class Store>
__global__ void __launch_bounds__(Config::block_threads)
    register_kernel(Op op, Load load, Store store, index_t rows, index_t cols, int group_log2) {
  constexpr int N = Config::pack, P = Config::packs, B = Config::block_threads;
  __shared__ reduce_storage<Op, B> shared;

  int const group = Config::whole_block ? B : 1 << group_log2;
  int const lane = Config::whole_block ? int(threadIdx.x) : int(threadIdx.x) & (group - 1);
  int const rows_per_block = B / group;
  index_t const row_step = index_t(gridDim.x) * rows_per_block;

  // This lane's packs inside the row: a prefix of 0 .. P-1, the same for every row.
  int valid_packs = 0;
  ROWFUSE_UNROLL
  for (int p = 0; p < P; ++p)
    if ((index_t(p) * group + lane) * N < cols)
      valid_packs = p + 1;
  auto const col_of = [&](int p) { return (index_t(p) * group + lane) * N; };

  // Whole-block rows reduce with CUB across the block, warp rows by shuffles in the group.
  int buffer = 0; // block_allreduce's alternating buffer, flipped every row
  auto const reduce = [&](auto value, auto merge, auto& storage) {
    using T = decltype(value);
    if constexpr (Config::whole_block)
      return block_allreduce<T, B>{storage, buffer}(value, merge);
    else
      return allreduce_in_group(value, group, merge);
  };

  load_context load_ctx{true, cols};
  store_context<float> store_ctx{cols, 0.0f};

  // Staging: slot `s` holds this thread's packs at ((s * P + p) * B + thread) * N, so a warp's
  // 16-byte reads of one pack index are consecutive (no bank conflicts). A thread reads back
  // only what it copied itself.
  using input_t = typename Load::element_type;
  constexpr bool staged = Config::template staged<input_t>;
  constexpr int slots = Config::template staging_slots<input_t>;
  extern __shared__ float4 staging_shared[];
  input_t* const staging = reinterpret_cast<input_t*>(staging_shared);
  auto const staged_pack = [&](int slot, int p) {
    return staging + ((slot * P + p) * B + int(threadIdx.x)) * N;
  };
  auto const stage_row = [&](index_t r, int slot) {
    if constexpr (staged) {
      if (r < rows) {
        ROWFUSE_UNROLL
        for (int p = 0; p < P; ++p)
          if (p < valid_packs)
            detail::async_copy_pack<N>(staged_pack(slot, p), load.input.row(r) + col_of(p));
      }
      detail::async_copy_commit();
    }
  };
  if constexpr (staged)
    stage_row(index_t(blockIdx.x) * rows_per_block + int(threadIdx.x) / group, 0);

  // The loop bound is the same for the whole block, so every shuffle and barrier is uniform.
  for (index_t first = index_t(blockIdx.x) * rows_per_block; first < rows;
       first += row_step, buffer ^= 1) {
    index_t const row = first + int(threadIdx.x) / group;
    bool const row_ok = row < rows;
    int const n = row_ok ? valid_packs * N : 0;

    int const slot = slots == 2 ? buffer : 0;
    if constexpr (slots == 2) {
      stage_row(row + row_step, slot ^ 1); // that slot was read a row ago
      detail::async_copy_wait<1>();        // this row's group has landed
    } else if constexpr (slots == 1) {
      detail::async_copy_wait<0>();
    }
    // Issue every operand's loads for the row before any arithmetic depends on one: inside the
    // chain, an operand's load waited for the arithmetic of the nodes before it (residual: a
    // second round trip a pack).
    typename Load::template reads_type<N> reads[P];
    ROWFUSE_UNROLL
    for (int p = 0; p < P; ++p)
      if (row_ok && p < valid_packs)
        reads[p] = load.template read<N>(row, col_of(p));
    // The store side's index-only work (dropout's Philox) runs right after the input's load is
    // issued, while it is in flight, rather than after the statistics, where a one-pack lane
    // has nothing to overlap it with. Only there: ptxas registers a thread, fp16 softmax ->
    // dropout, after -> ahead: warp_rows 1 pack 36 -> 40; 2 packs and staged 128 x 4 took 10-30
    // more (and a staged row has no load in flight to hide the draws behind).
    constexpr bool draw_store_ahead = !staged && P == 1;
    typename Store::template draws_type<N> store_draws[P];
    // Pack by pack (reading the input ahead in a loop of its own, like the operands, cost the
    // staged shapes 20-25 registers: 128 x 4 68 -> 93, 1024 x 4 spilled).
    float v[P * N];
    ROWFUSE_UNROLL
    for (int p = 0; p < P; ++p) {
      if (row_ok && p < valid_packs) {
        input_t raw[N];
        if constexpr (staged)
          detail::load_pack<N>(staged_pack(slot, p), raw);
        else
          load.template read_input<N>(row, col_of(p), raw);
        if constexpr (draw_store_ahead)
          store_draws[p] = store.template draw<N>(row, col_of(p), cols);
        float x[N];
        load.template transform<N>(raw, row, col_of(p), x, load_ctx, reads[p],
                                   load.template draw<N>(row, col_of(p), cols));
        ROWFUSE_UNROLL
        for (int j = 0; j < N; ++j)
          v[p * N + j] = x[j];
      } else {
        ROWFUSE_UNROLL
        for (int j = 0; j < N; ++j)
          v[p * N + j] = 0.0f;
      }
    }

    // Saves the row's statistics, then finishes and stores this lane's packs with `finish`.
    auto const finish_row = [&](auto const& stats, auto finish) {
      if (row_ok && lane == 0)
        op.save(row, stats);
      ROWFUSE_UNROLL
      for (int p = 0; p < P; ++p) {
        if (row_ok && p < valid_packs) {
          float y[N];
          ROWFUSE_UNROLL
          for (int j = 0; j < N; ++j)
            y[j] = v[p * N + j];
          finish(y, col_of(p));
          if constexpr (draw_store_ahead)
            store.template store<N>(row, col_of(p), y, store_ctx, store_draws[p]);
          else
            store.template store<N>(row, col_of(p), y, store_ctx);
        }
      }
    };

    // One slot: refill it once the first reduction has consumed every value read from it (so
    // those reads have completed before the copies can land).
    auto const refill_single_slot = [&] {
      if constexpr (slots == 1)
        stage_row(row + row_step, 0);
    };
    if constexpr (two_phase_op<Op>) {
      auto const first_total = reduce(
          op.phase1(v, n), [&](auto a, auto b) { return op.merge1(a, b); }, shared.first);
      refill_single_slot();
      auto const second_total = reduce(
          op.phase2(v, n, first_total, cols), [&](auto a, auto b) { return op.merge2(a, b); },
          shared.second);
      auto const stats = op.finalize2(first_total, second_total, cols);
      finish_row(stats,
                 [&](float(&y)[N], index_t col0) { op.template finish2<N>(y, stats, row, col0); });
    } else {
      auto const total = reduce(
          op.local(v, n), [&](auto a, auto b) { return op.merge(a, b); }, shared.partials);
      refill_single_slot();
      auto const stats = op.finalize(total, cols);
      finish_row(stats,
                 [&](float(&y)[N], index_t col0) { op.template finish<N>(y, stats, row, col0); });
    }
  }
  flush_amax(store, store_ctx);
}

} // namespace rowfuse::engine
