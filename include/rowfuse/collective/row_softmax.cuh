// softmax and log-softmax of every row of a tile held by a warp or a block, with load and store
// transforms: the middle step of an attention kernel, P = dropout(softmax(S * scale + mask)),
// on scores that never leave registers (or shared memory).
//
//   using layout = rfc::mma_accumulator_layout<16, 16>;   // S = Q K^T from mma.sync
//   rfc::warp_row_softmax<layout>().softmax(s, rfc::tile_origin{row0, col0}, scores, probs);
//
// The numerics are rf::softmax's own (op/softmax.cuh): the row max, then the sum of
// exp(x - max), each reduced across the threads of the row; outputs exp(x - max) * (1 / sum)
// with a correctly rounded reciprocal. A row whose elements are all -inf (fully masked) gives
// zeros (log-softmax: -inf), never NaN. The tile's row is the softmax's row: Layout::cols
// columns, the whole row of the tensor or, for a tile of a longer row, the tile's part of it
// (for a row spread over several tiles, see online_softmax.cuh).
#pragma once

#include <type_traits>

#include "../detail/config.hpp"
#include "../op/softmax.cuh"
#include "layout.cuh"
#include "row_reduce.cuh"
#include "tile.cuh"
#include "transforms.cuh"

namespace rowfuse::collective {

/// The exponential of a softmax: `accurate` is expf (fp32 outputs within 1e-6 relative, as
/// rf::softmax for fp32), `fast` one ex2.approx.ftz of (x - max) * log2(e) (2^-22 relative,
/// plenty for 16-bit outputs and for P in a 16-bit P V product; what rf::softmax uses for
/// 16-bit outputs).
enum class exp_precision { accurate, fast };

/// softmax / log-softmax over the rows of a Layout tile in `Scope` (warp_scope, block_scope;
/// use the aliases warp_row_softmax and block_row_softmax).
///
/// Contract:
///  - every thread of the scope calls, converged, with the same origin and transforms;
///  - registers: `values[Layout::values]` in layout order (layout.cuh); padding registers end
///    unspecified. Shared memory: each thread reads and writes only its own elements, so
///    `input` and `output` may be the same tile; the caller makes the input visible to the
///    whole scope before the call (__syncwarp / __syncthreads), and the output after it;
///  - synchronisation: none, unless Layout's rows span warps (block layouts with
///    threads_per_row > 32): then one __syncthreads per reduction, two per call. Calls through
///    the same object may follow each other on the same TempStorage with no barrier between;
///    reusing the storage otherwise takes a __syncthreads first;
///  - transforms: load chain on the tile's values at their tensor coordinates (origin + tile
///    position), then the op, then the store chain, then rounding to the store chain's element
///    type (the output's). rf::cast's amax costs one atomic per warp and call.
template <tile_layout Layout, class Scope, exp_precision Precision = exp_precision::accurate>
class row_softmax {
  static_assert(Scope::template admits<Layout>,
                "rowfuse: a warp collective needs a layout of 32 threads (Layout::threads == 32)");
  static_assert(Layout::threads_per_row <= 32 || std::is_same_v<Scope, block_scope>,
                "rowfuse: rows that span warps (threads_per_row > 32) need block scope");

  /// Buffer 0 carries the row max, buffer 1 softmax's row sum: consecutive reductions alternate.
  using reduction = row_allreduce<Layout, float, 2>;
  /// log-softmax's second reduction carries its sum and the part of it below the max's own term
  /// (op/softmax.cuh), in storage of its own.
  using log_sums = typename op::softmax<true, Precision == exp_precision::accurate>::sums;
  using log_reduction = row_allreduce<Layout, log_sums>;

public:
  struct TempStorage {
    typename reduction::TempStorage reduction_posts;
    typename log_reduction::TempStorage log_posts;
  };

  /// Layouts whose rows stay inside warps need no shared memory.
  __device__ row_softmax() requires(!reduction::spans_warps) : storage_(nullptr) {}
  __device__ explicit row_softmax(TempStorage& storage) : storage_(&storage) {}

  /// softmax of `values` in place (the store chain's type must then be float).
  template <class In = load_expr<float>, class Out = store_expr<float>>
  __device__ void softmax(float (&values)[Layout::values], tile_origin origin = {},
                          tile_transforms<In> const& in = {},
                          tile_transforms<Out> const& out = {}) {
    static_assert(std::is_same_v<typename Out::element_type, float>,
                  "rowfuse: in place, results stay fp32: describe the output with "
                  "rfc::tile_store(rows, cols), or pass an output array of the store chain's type");
    run<false>(tile_detail::from_registers<Layout>{values},
               tile_detail::to_registers<Layout, float>{values}, origin, in, out);
  }
  /// softmax of `values` into `result`, rounded to its type (the store chain's element type).
  template <class T, class In = load_expr<float>, class Out = store_expr<T>>
  __device__ void softmax(float const (&values)[Layout::values], T (&result)[Layout::values],
                          tile_origin origin = {}, tile_transforms<In> const& in = {},
                          tile_transforms<Out> const& out = {}) {
    run<false>(tile_detail::from_registers<Layout>{values},
               tile_detail::to_registers<Layout, T>{result}, origin, in, out);
  }
  /// softmax of a shared-memory tile into another (or the same), of the store chain's type.
  template <class T, class U, class In = load_expr<float>, class Out = store_expr<U>>
  __device__ void softmax(shared_tile<T> input, shared_tile<U> output, tile_origin origin = {},
                          tile_transforms<In> const& in = {},
                          tile_transforms<Out> const& out = {}) {
    run<false>(tile_detail::from_shared<T const>{{input.data, input.ld}},
               tile_detail::to_shared<U>{output}, origin, in, out);
  }

  /// log-softmax, the same three ways. A fully masked row gives -inf.
  template <class In = load_expr<float>, class Out = store_expr<float>>
  __device__ void log_softmax(float (&values)[Layout::values], tile_origin origin = {},
                              tile_transforms<In> const& in = {},
                              tile_transforms<Out> const& out = {}) {
    static_assert(std::is_same_v<typename Out::element_type, float>,
                  "rowfuse: in place, results stay fp32: describe the output with "
                  "rfc::tile_store(rows, cols), or pass an output array of the store chain's type");
    run<true>(tile_detail::from_registers<Layout>{values},
              tile_detail::to_registers<Layout, float>{values}, origin, in, out);
  }
  template <class T, class In = load_expr<float>, class Out = store_expr<T>>
  __device__ void log_softmax(float const (&values)[Layout::values], T (&result)[Layout::values],
                              tile_origin origin = {}, tile_transforms<In> const& in = {},
                              tile_transforms<Out> const& out = {}) {
    run<true>(tile_detail::from_registers<Layout>{values},
              tile_detail::to_registers<Layout, T>{result}, origin, in, out);
  }
  template <class T, class U, class In = load_expr<float>, class Out = store_expr<U>>
  __device__ void log_softmax(shared_tile<T> input, shared_tile<U> output, tile_origin origin = {},
                              tile_transforms<In> const& in = {},
                              tile_transforms<Out> const& out = {}) {
    run<true>(tile_detail::from_shared<T const>{{input.data, input.ld}},
              tile_detail::to_shared<U>{output}, origin, in, out);
  }

private:
  template <bool Log, class Source, class Sink, class In, class Out>
  __device__ void run(Source const& source, Sink const& sink, tile_origin origin,
                      tile_transforms<In> const& in, tile_transforms<Out> const& out) {
    constexpr int slots = Layout::row_slots;
    using softmax_op = op::softmax<Log, Precision == exp_precision::accurate>;
    softmax_op const op{};
    int const thread = Scope::thread_rank();
    tile_values<Layout> tile;
    load_tile(source, in, origin, thread, tile);

    using sums = typename softmax_op::sums;
    auto const max = [](float a, float b) { return fmaxf(a, b); };
    auto const merge_sums = [&](sums a, sums b) { return op.merge2(a, b); };
    float row_max[slots];
    sums row_sum[slots];
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s)
      row_max[s] = op.phase1(tile.values[s], tile.count[s]);
    reduce<reduction>(row_max, max, thread, 0);
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s) // softmax: values become exp(x - max)
      row_sum[s] = op.phase2(tile.values[s], tile.count[s], row_max[s], Layout::cols);
    if constexpr (Log)
      reduce<log_reduction>(row_sum, merge_sums, thread, 0);
    else
      reduce<reduction>(row_sum, merge_sums, thread, 1);

    typename softmax_op::stats stats[slots];
    ROWFUSE_UNROLL
    for (int s = 0; s < slots; ++s)
      stats[s] = op.finalize2(row_max[s], row_sum[s], Layout::cols);
    store_tile(sink, out, origin, thread, tile,
               [&](int s, float(&y)[Layout::pack], index_t row, index_t col) {
                 op.template finish2<Layout::pack>(y, stats[s], row, col);
               });
  }

  template <class Reduction, class T, class Merge>
  __device__ void reduce(T (&value)[Layout::row_slots], Merge merge, int thread, int buffer) {
    if constexpr (Reduction::spans_warps) {
      if constexpr (std::is_same_v<Reduction, log_reduction>)
        Reduction::run(value, merge, storage_->log_posts, thread, buffer);
      else
        Reduction::run(value, merge, storage_->reduction_posts, thread, buffer);
    } else {
      typename Reduction::TempStorage none;
      Reduction::run(value, merge, none, thread, buffer);
    }
  }

  TempStorage* storage_; // null where rows stay inside warps
};

/// softmax / log-softmax of a warp's tile (Layout::threads == 32): no shared memory, no barrier.
template <tile_layout Layout, exp_precision Precision = exp_precision::accurate>
using warp_row_softmax = row_softmax<Layout, warp_scope, Precision>;

/// softmax / log-softmax of a block's tile (Layout::threads == the block's threads).
template <tile_layout Layout, exp_precision Precision = exp_precision::accurate>
using block_row_softmax = row_softmax<Layout, block_scope, Precision>;

} // namespace rowfuse::collective
