// The online softmax of a flash-attention loop: the running max and sum of each row over the
// key tiles seen so far, and the factor by which the output accumulated so far must be
// rescaled when the max grows (Milakov and Gimelshein, "Online normalizer calculation for
// softmax", 2018; Dao et al., FlashAttention).
//
//   rfc::warp_online_softmax<rfc::mma_accumulator_layout<16, 16>> state;
//   for (key tile k) {
//     S = Q K_k^T;                                   // mma.sync accumulators, float s[8]
//     state.update(s, {q_row0, 16 * k}, scores, probs); // s becomes P_k, unnormalised
//     state.rescale(o);                              // O *= exp(old max - new max), row by row
//     O += P_k V_k;
//   }
//   state.finish(o);                                 // O /= row sum (0 for fully masked rows)
//
// update(s) sets, for each row, m' = max(m, max of the tile), the factor a = exp(m - m'), the
// sum l' = a l + sum exp(s - m'), and s to the store chain of exp(s - m'). Every thread keeps
// its own part of l (a is the same on all the threads of a row, so the parts stay in step):
// update reduces only the tile's max across the row's threads; finish reduces the sum once.
#pragma once

#include <type_traits>

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"
#include "layout.cuh"
#include "row_reduce.cuh"
#include "row_softmax.cuh"
#include "tile.cuh"
#include "transforms.cuh"

namespace rowfuse::collective {

namespace online_detail {

/// Store transforms that commute with the division by the row sum that finish() applies later:
/// dropout (keep bits of the element, a constant factor) and scale.
template <class Node> inline constexpr bool commutes_with_row_division = false;
template <> inline constexpr bool commutes_with_row_division<dropout_node> = true;
template <> inline constexpr bool commutes_with_row_division<scale_node> = true;

template <class Expr> inline constexpr bool store_chain_commutes = false;
template <class... Nodes>
inline constexpr bool store_chain_commutes<store_expr<float, Nodes...>> =
    (true && ... && commutes_with_row_division<Nodes>);

} // namespace online_detail

/// The online softmax state of a Layout tile of scores in `Scope` (use warp_online_softmax and
/// block_online_softmax), one running max, sum and rescale factor per row slot of the thread.
///
/// Contract: every thread of the scope calls each member, converged, with the same arguments.
/// update() runs the load chain (scale, causal mask, masks: at the tensor coordinates
/// origin + tile position) and then the store chain on the unnormalised probabilities
/// exp(s - running max): only transforms that commute with finish()'s division (rf::dropout,
/// rf::scale) are allowed there, so the loop's P V equals (dropout of softmax) V. Padding
/// registers (layout.cuh) come out 0, adding nothing to P V. Synchronisation: none unless
/// rows span warps; then one __syncthreads in each update() and in finish().
template <tile_layout Layout, class Scope, exp_precision Precision = exp_precision::accurate>
class online_softmax {
  static_assert(Scope::template admits<Layout>,
                "rowfuse: a warp collective needs a layout of 32 threads (Layout::threads == 32)");
  static_assert(Layout::threads_per_row <= 32 || std::is_same_v<Scope, block_scope>,
                "rowfuse: rows that span warps (threads_per_row > 32) need block scope");

  /// Consecutive reductions (update's max, finish's sum) alternate between two buffers.
  using reduction = row_allreduce<Layout, float, 2>;
  static constexpr int slots = Layout::row_slots;
  static constexpr bool accurate = Precision == exp_precision::accurate;

public:
  struct TempStorage {
    typename reduction::TempStorage reduction_posts;
  };

  __device__ online_softmax() requires(!reduction::spans_warps) : storage_(nullptr) { reset(); }
  __device__ explicit online_softmax(TempStorage& storage) : storage_(&storage) { reset(); }

  /// Forgets every tile seen: max -inf, sum 0, factor 1 (a new query tile).
  __device__ void reset() {
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s) {
      max_[s] = detail::neg_inf;
      sum_[s] = 0.0f;
      factor_[s] = 1.0f;
    }
  }

  /// Takes one tile of scores (tensor coordinates from `origin`) and turns it into its
  /// unnormalised probabilities, in place.
  template <class In = load_expr<float>, class Out = store_expr<float>>
  __device__ void update(float (&scores)[Layout::values], tile_origin origin = {},
                         tile_transforms<In> const& in = {}, tile_transforms<Out> const& out = {}) {
    static_assert(online_detail::store_chain_commutes<Out>,
                  "rowfuse: an online softmax's store chain runs before the division by the row "
                  "sum: only rf::dropout and rf::scale (which commute with it) are allowed, and "
                  "results stay fp32 (rfc::tile_store(rows, cols))");
    constexpr int packs = Layout::packs_per_row, pack = Layout::pack;
    int const thread = Scope::thread_rank();
    int const held = packs_held<Layout>(thread);

    float tile_max[slots];
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s) {
      bool const row_held = holds_row<Layout>(thread, s);
      int const r = Layout::tile_row(thread, s);
      tile_max[s] = detail::neg_inf;
      ROWFUSE_UNROLL
      for (int p = 0; p < packs; ++p) {
        float x[pack];
        ROWFUSE_UNROLL
        for (int j = 0; j < pack; ++j)
          x[j] = scores[Layout::value_index(s, p, j)];
        if (row_held && p < held) {
          int const c = Layout::tile_col(thread, p);
          transform_loaded(in, x, origin.row + r, origin.col + c);
          ROWFUSE_UNROLL
          for (int j = 0; j < pack; ++j)
            tile_max[s] = fmaxf(tile_max[s], x[j]); // fmaxf skips NaN; the sum carries it
        } else {
          ROWFUSE_UNROLL
          for (int j = 0; j < pack; ++j)
            x[j] = detail::neg_inf; // padding: exp gives 0
        }
        ROWFUSE_UNROLL
        for (int j = 0; j < pack; ++j)
          scores[Layout::value_index(s, p, j)] = x[j];
      }
    }
    auto const max = [](float a, float b) { return fmaxf(a, b); };
    reduce(tile_max, max, thread);

    store_context<float> context{out.tensor_cols, 0.0f};
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s) {
      float const new_max = fmaxf(max_[s], tile_max[s]);
      // Nothing visible yet: shift by 0, so exp(-inf) = 0 and no -inf - -inf arises.
      float const shift = new_max == detail::neg_inf ? 0.0f : new_max;
      factor_[s] = detail::exp_shifted<accurate>(max_[s], shift);
      max_[s] = new_max;
      int const r = Layout::tile_row(thread, s);
      float partial = 0.0f;
      ROWFUSE_UNROLL
      for (int p = 0; p < packs; ++p) {
        float e[pack];
        ROWFUSE_UNROLL
        for (int j = 0; j < pack; ++j) {
          e[j] = detail::exp_shifted<accurate>(scores[Layout::value_index(s, p, j)], shift);
          partial += e[j];
        }
        if (holds_row<Layout>(thread, s) && p < held) {
          int const c = Layout::tile_col(thread, p);
          float raw[pack];
          transform_stored(out, e, origin.row + r, origin.col + c, context, raw);
          ROWFUSE_UNROLL
          for (int j = 0; j < pack; ++j)
            e[j] = raw[j];
        }
        ROWFUSE_UNROLL
        for (int j = 0; j < pack; ++j)
          scores[Layout::value_index(s, p, j)] = e[j];
      }
      sum_[s] = fmaf(sum_[s], factor_[s], partial);
    }
  }

  /// Multiplies an accumulator laid out with the same rows (attention's O) by the last
  /// update's factors, row by row: call after update() and before adding P V.
  template <tile_layout AccumulatorLayout>
  __device__ void rescale(float (&accumulator)[AccumulatorLayout::values]) const {
    static_assert(same_rows<Layout, AccumulatorLayout>,
                  "rowfuse: the accumulator's layout must hold the same rows in the same slots "
                  "as the scores' (e.g. mma_accumulator_layout<16, D> beside <16, 16>)");
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s)
      scale_slot<AccumulatorLayout>(accumulator, s, factor_[s]);
  }

  /// Reduces each row's sum across its threads and divides the accumulator by it: O = P V with
  /// P the softmax of every tile seen. Rows with nothing visible (sum 0) give 0.
  template <tile_layout AccumulatorLayout>
  __device__ void finish(float (&accumulator)[AccumulatorLayout::values]) {
    static_assert(same_rows<Layout, AccumulatorLayout>,
                  "rowfuse: the accumulator's layout must hold the same rows in the same slots "
                  "as the scores' (e.g. mma_accumulator_layout<16, D> beside <16, 16>)");
    auto const plus = [](float a, float b) { return a + b; };
    reduce(sum_, plus, Scope::thread_rank());
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s) {
      float const inverse = sum_[s] == 0.0f ? 0.0f : __frcp_rn(sum_[s]);
      scale_slot<AccumulatorLayout>(accumulator, s, inverse);
    }
  }

  /// Row slot s's running max (of the transformed scores) and the last update's factor.
  __device__ float running_max(int slot) const { return max_[slot]; }
  __device__ float rescale_factor(int slot) const { return factor_[slot]; }
  /// After finish(): the row's sum of exp(s - max) (before finish: this thread's part of it).
  __device__ float running_sum(int slot) const { return sum_[slot]; }
  /// After finish(): log of the row's sum of exp(s), what a backward pass keeps; -inf for rows
  /// with nothing visible.
  __device__ float log_sum_exp(int slot) const {
    return sum_[slot] == 0.0f ? detail::neg_inf : max_[slot] + logf(sum_[slot]);
  }

private:
  /// Multiplies every register of row slot `slot` of an accumulator by `factor`.
  template <tile_layout AccumulatorLayout>
  __device__ static void scale_slot(float (&accumulator)[AccumulatorLayout::values], int slot,
                                    float factor) {
    ROWFUSE_UNROLL
    for (int p = 0; p < AccumulatorLayout::packs_per_row; ++p) {
      ROWFUSE_UNROLL
      for (int j = 0; j < AccumulatorLayout::pack; ++j)
        accumulator[AccumulatorLayout::value_index(slot, p, j)] *= factor;
    }
  }

  template <class Merge> __device__ void reduce(float (&value)[slots], Merge merge, int thread) {
    if constexpr (reduction::spans_warps) {
      reduction::run(value, merge, storage_->reduction_posts, thread, buffer_);
      buffer_ ^= 1;
    } else {
      typename reduction::TempStorage none;
      reduction::run(value, merge, none, thread);
    }
  }

  TempStorage* storage_; // null where rows stay inside warps
  int buffer_ = 0;
  float max_[slots];
  float sum_[slots];
  float factor_[slots];
};

/// The online softmax of a warp's tiles (Layout::threads == 32): no shared memory, no barrier.
template <tile_layout Layout, exp_precision Precision = exp_precision::accurate>
using warp_online_softmax = online_softmax<Layout, warp_scope, Precision>;

/// The online softmax of a block's tiles (Layout::threads == the block's threads).
template <tile_layout Layout, exp_precision Precision = exp_precision::accurate>
using block_online_softmax = online_softmax<Layout, block_scope, Precision>;

} // namespace rowfuse::collective
