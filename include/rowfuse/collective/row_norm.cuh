// layernorm and rmsnorm of every row of a tile held by a warp or a block, with load and store
// transforms and the per-column gamma and beta of the whole-tensor ops (rf::affine,
// rf::zero_centered_gamma): a pre-norm inside a fused MLP or attention kernel.
//
// The numerics are rf::layernorm's and rf::rmsnorm's register-engine protocols (op/norm.cuh):
// layernorm reduces the row sum, then around the rounded mean the sums of x - mean and of its
// square (the mean carried as hi + lo, exact for constant rows); rmsnorm reduces the sum of
// squares. The tile's row is the norm's row: Layout::cols columns.
#pragma once

#include <cassert>
#include <type_traits>

#include "../detail/config.hpp"
#include "../op/affine.hpp"
#include "../op/norm.cuh"
#include "layout.cuh"
#include "row_reduce.cuh"
#include "tile.cuh"
#include "transforms.cuh"

namespace rowfuse::collective {

namespace norm_detail {

/// layernorm's second reduction: the sums of x - mean and of its square.
struct two_sums {
  float sum;
  float sum_squares;
};

} // namespace norm_detail

/// layernorm / rmsnorm over the rows of a Layout tile in `Scope` (use the aliases
/// warp_row_norm and block_row_norm).
///
/// Contract: as row_softmax (row_softmax.cuh): every thread of the scope calls, converged, with
/// the same arguments; shared-memory tiles may be the same; no barrier unless rows span warps
/// (then one __syncthreads per reduction: two per layernorm, one per rmsnorm; consecutive calls
/// through one object need none between them). Also:
///  - `affine`: rf::affine(gamma, beta), rf::affine(gamma), rf::zero_centered_gamma(gamma) or
///    rf::no_affine, indexed by tensor column (origin.col + tile column). Its pointers are read
///    in packs of Layout::pack: aligned to them, with origin.col a multiple of Layout::pack.
///    rmsnorm takes no beta (as rf::rmsnorm);
///  - `eps` > 0; `stats` / `rstd` (optional) receive each row's statistics at its tensor row.
template <tile_layout Layout, class Scope> class row_norm {
  static_assert(Scope::template admits<Layout>,
                "rowfuse: a warp collective needs a layout of 32 threads (Layout::threads == 32)");
  static_assert(Layout::threads_per_row <= 32 || std::is_same_v<Scope, block_scope>,
                "rowfuse: rows that span warps (threads_per_row > 32) need block scope");

  /// The first reduction of each call (row sum, sum of squares) alternates between two buffers
  /// from call to call; layernorm's second has its own storage. So no two consecutive
  /// reductions through one object share a buffer.
  using first_reduction = row_allreduce<Layout, float, 2>;
  using second_reduction = row_allreduce<Layout, norm_detail::two_sums, 1>;

public:
  struct TempStorage {
    typename first_reduction::TempStorage first;
    typename second_reduction::TempStorage second;
  };

  __device__ row_norm() requires(!first_reduction::spans_warps) : storage_(nullptr) {}
  __device__ explicit row_norm(TempStorage& storage) : storage_(&storage) {}

  /// layernorm of `values` in place: y = (x - mean) * rstd [* gamma + beta].
  template <class Affine, class In = load_expr<float>, class Out = store_expr<float>>
  __device__ void layernorm(float (&values)[Layout::values], Affine const& affine, float eps,
                            tile_origin origin = {}, tile_transforms<In> const& in = {},
                            tile_transforms<Out> const& out = {}, row_stats stats = {}) {
    static_assert(std::is_same_v<typename Out::element_type, float>,
                  "rowfuse: in place, results stay fp32: describe the output with "
                  "rfc::tile_store(rows, cols), or pass an output array of the store chain's type");
    run_layernorm(tile_detail::from_registers<Layout>{values},
                  tile_detail::to_registers<Layout, float>{values}, affine, eps, origin, in, out,
                  stats);
  }
  /// layernorm of a shared-memory tile into another (or the same), of the store chain's type.
  template <class T, class U, class Affine, class In = load_expr<float>, class Out = store_expr<U>>
  __device__ void layernorm(shared_tile<T> input, shared_tile<U> output, Affine const& affine,
                            float eps, tile_origin origin = {}, tile_transforms<In> const& in = {},
                            tile_transforms<Out> const& out = {}, row_stats stats = {}) {
    run_layernorm(tile_detail::from_shared<T const>{{input.data, input.ld}},
                  tile_detail::to_shared<U>{output}, affine, eps, origin, in, out, stats);
  }

  /// rmsnorm of `values` in place: y = x * rstd [* gamma or * (1 + gamma)].
  template <class Affine, class In = load_expr<float>, class Out = store_expr<float>>
  __device__ void rmsnorm(float (&values)[Layout::values], Affine const& affine, float eps,
                          tile_origin origin = {}, tile_transforms<In> const& in = {},
                          tile_transforms<Out> const& out = {}, float* rstd = nullptr) {
    static_assert(std::is_same_v<typename Out::element_type, float>,
                  "rowfuse: in place, results stay fp32: describe the output with "
                  "rfc::tile_store(rows, cols), or pass an output array of the store chain's type");
    run_rmsnorm(tile_detail::from_registers<Layout>{values},
                tile_detail::to_registers<Layout, float>{values}, affine, eps, origin, in, out,
                rstd);
  }
  template <class T, class U, class Affine, class In = load_expr<float>, class Out = store_expr<U>>
  __device__ void rmsnorm(shared_tile<T> input, shared_tile<U> output, Affine const& affine,
                          float eps, tile_origin origin = {}, tile_transforms<In> const& in = {},
                          tile_transforms<Out> const& out = {}, float* rstd = nullptr) {
    run_rmsnorm(tile_detail::from_shared<T const>{{input.data, input.ld}},
                tile_detail::to_shared<U>{output}, affine, eps, origin, in, out, rstd);
  }

private:
  static constexpr int slots = Layout::row_slots;
  static constexpr int pack = Layout::pack;

  template <class Source, class Sink, class Affine, class In, class Out>
  __device__ void run_layernorm(Source const& source, Sink const& sink, Affine const& affine,
                                float eps, tile_origin origin, tile_transforms<In> const& in,
                                tile_transforms<Out> const& out, row_stats saved) {
    static_assert(rowfuse::detail::is_affine<Affine>,
                  "rowfuse: layernorm's affine is rf::affine(gamma, beta), rf::affine(gamma) or "
                  "rf::no_affine");
    using op_t = op::layernorm<Affine>;
    op_t const op{affine, eps, saved};
    int const thread = Scope::thread_rank();
    tile_values<Layout> tile;
    load_tile(source, in, origin, thread, tile);

    float row_sum[slots];
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s)
      row_sum[s] = op.phase1(tile.values[s], tile.count[s]);
    reduce_first(row_sum, thread);
    norm_detail::two_sums deviations[slots];
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s) {
      // The values become x - hi.
      auto const d = op.phase2(tile.values[s], tile.count[s], row_sum[s], Layout::cols);
      deviations[s] = {d.sum, d.sum_squares};
    }
    reduce_second(deviations, thread);

    typename op_t::stats stats[slots];
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s) {
      stats[s] = op.finalize2(
          row_sum[s], typename op_t::deviations{deviations[s].sum, deviations[s].sum_squares},
          Layout::cols);
      if (thread % Layout::threads_per_row == 0 && holds_row<Layout>(thread, s))
        op.save(origin.row + Layout::tile_row(thread, s), stats[s]);
    }
    store_tile(
        sink, out, origin, thread, tile, [&](int s, float(&y)[pack], index_t row, index_t col) {
          op.template finish2<pack>(y, stats[s], row, col, op.template read_columns<pack>(col));
        });
  }

  template <class Source, class Sink, class Affine, class In, class Out>
  __device__ void run_rmsnorm(Source const& source, Sink const& sink, Affine const& affine,
                              float eps, tile_origin origin, tile_transforms<In> const& in,
                              tile_transforms<Out> const& out, float* saved_rstd) {
    static_assert(rowfuse::detail::is_affine<Affine>,
                  "rowfuse: rmsnorm's affine is rf::affine(gamma), rf::zero_centered_gamma(gamma) "
                  "or rf::no_affine");
    if constexpr (!std::is_same_v<Affine, no_affine_t>)
      assert(affine.beta.data == nullptr && "rmsnorm has no shift: pass rf::affine(gamma)");
    using op_t = op::rmsnorm<Affine>;
    op_t const op{affine, eps, saved_rstd};
    int const thread = Scope::thread_rank();
    tile_values<Layout> tile;
    load_tile(source, in, origin, thread, tile);

    float sum_squares[slots];
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s)
      sum_squares[s] = op.local(tile.values[s], tile.count[s]).sum_squares;
    reduce_first(sum_squares, thread);
    typename op_t::stats stats[slots];
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s) {
      stats[s] = op.finalize(typename op_t::partial{sum_squares[s]}, Layout::cols);
      if (thread % Layout::threads_per_row == 0 && holds_row<Layout>(thread, s))
        op.save(origin.row + Layout::tile_row(thread, s), stats[s]);
    }
    store_tile(
        sink, out, origin, thread, tile, [&](int s, float(&y)[pack], index_t row, index_t col) {
          op.template finish<pack>(y, stats[s], row, col, op.template read_columns<pack>(col));
        });
  }

  __device__ void reduce_first(float (&value)[slots], int thread) {
    auto const plus = [](float a, float b) { return a + b; };
    if constexpr (first_reduction::spans_warps) {
      first_reduction::run(value, plus, storage_->first, thread, first_buffer_);
      first_buffer_ ^= 1;
    } else {
      typename first_reduction::TempStorage none;
      first_reduction::run(value, plus, none, thread);
    }
  }
  __device__ void reduce_second(norm_detail::two_sums (&value)[slots], int thread) {
    auto const plus = [](norm_detail::two_sums a, norm_detail::two_sums b) {
      return norm_detail::two_sums{a.sum + b.sum, a.sum_squares + b.sum_squares};
    };
    if constexpr (second_reduction::spans_warps) {
      second_reduction::run(value, plus, storage_->second, thread);
    } else {
      typename second_reduction::TempStorage none;
      second_reduction::run(value, plus, none, thread);
    }
  }

  TempStorage* storage_; // null where rows stay inside warps
  int first_buffer_ = 0;
};

/// layernorm / rmsnorm of a warp's tile (Layout::threads == 32): no shared memory, no barrier.
template <tile_layout Layout> using warp_row_norm = row_norm<Layout, warp_scope>;

/// layernorm / rmsnorm of a block's tile (Layout::threads == the block's threads).
template <tile_layout Layout> using block_row_norm = row_norm<Layout, block_scope>;

} // namespace rowfuse::collective
