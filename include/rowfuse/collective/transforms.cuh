// The load and store transforms of a tile: rowfuse's own expressions (rf::scale,
// rf::causal_mask, rf::mask, rf::add, rf::dropout, rf::cast, user functors, ...) over a tensor
// that never exists in global memory as a whole, such as attention's scores.
//
//   host:    auto const scores = rfc::bind(rfc::tile_load(rows, cols) | rf::scale(0.125f)
//                                          | rf::causal_mask(q_len));
//            auto const probs = rfc::bind(rfc::tile_store(rows, cols) | rf::dropout(0.1f, seed));
//   kernel:  softmax.softmax(s, rfc::tile_origin{row0, col0}, scores, probs);
//
// The nodes are the whole-tensor ops' nodes, run on the same tensor coordinates, so a tile gets
// what rf::softmax over the [rows, cols] tensor gives the same elements: the same masks, the
// same dropout bits (a function of seed, offset, row and col alone).
#pragma once

#include <type_traits>

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"
#include "../error.hpp"
#include "../expr/expression.hpp"
#include "layout.cuh"
#include "tile.cuh"

namespace rowfuse::collective {

/// The load side of tiles of a [rows, cols] tensor held in registers or shared memory: pipe
/// load transforms into it (`| rf::scale(s) | rf::causal_mask(q_len)`), then rfc::bind it.
inline load_expr<float> tile_load(index_t rows, index_t cols) {
  return {view<float const>{nullptr, rows, cols, cols, {}, -1}, {}};
}

/// The store side of the same tensor, whose results are rounded to T (fp32 by default; a
/// 16-bit or fp8 T for shared-memory or register outputs of that type, rf::cast<T> allowed last).
template <element T = float> store_expr<T> tile_store(index_t rows, index_t cols) {
  return {view<T>{nullptr, rows, cols, cols, {}, -1}, {}};
}

/// A load or store chain bound on the host (rfc::bind), passed to a kernel by value. Default-
/// constructed: no transforms.
template <class Expr> struct tile_transforms {
  using expr_type = Expr;
  Expr expr{};
  /// Row length of the tensor the tiles are cut from: dropout's element index is
  /// row * tensor_cols + col, as in the whole-tensor op.
  index_t tensor_cols = 0;
  /// The widest pack (8, 4, 2, 1) whose accesses to the nodes' operands (masks, additive
  /// operands, tee targets, dropout's keep mask) are aligned: packs of the layout up to it run
  /// the chain once a pack, wider ones once an element.
  int aligned_pack = 8;
};

namespace transforms_detail {

template <class Expr> inline constexpr int chain_length = 0;
template <class T, class... Nodes>
inline constexpr int chain_length<load_expr<T, Nodes...>> = int(sizeof...(Nodes));
template <class T, class... Nodes>
inline constexpr int chain_length<store_expr<T, Nodes...>> = int(sizeof...(Nodes));

/// Nodes whose packs touch no memory, and so run on packs at any column.
template <class Node> inline constexpr bool touches_no_memory = false;
template <> inline constexpr bool touches_no_memory<scale_node> = true;
template <> inline constexpr bool touches_no_memory<causal_mask_node> = true;
template <class F> inline constexpr bool touches_no_memory<map_node<F>> = true;
template <class T> inline constexpr bool touches_no_memory<cast_node<T>> = true;

template <class Expr> inline constexpr bool needs_aligned_packs = true;
template <class T, class... Nodes>
inline constexpr bool needs_aligned_packs<load_expr<T, Nodes...>> =
    !(true && ... && touches_no_memory<Nodes>);
template <class T, class... Nodes>
inline constexpr bool needs_aligned_packs<store_expr<T, Nodes...>> =
    !(true && ... && touches_no_memory<Nodes>);

template <class Expr> int widest_aligned_pack(Expr const& expr) {
  if (rowfuse::detail::chain_allows_pack<8>(expr))
    return 8;
  if (rowfuse::detail::chain_allows_pack<4>(expr))
    return 4;
  if (rowfuse::detail::chain_allows_pack<2>(expr))
    return 2;
  return 1;
}

inline void check_shape(index_t rows, index_t cols) {
  char const* where = "rf::collective::bind";
  detail::require(rows >= 0, where, "rows", rows,
                  "must be >= 0: describe the tensor with rfc::tile_load(rows, cols) or "
                  "rfc::tile_store(rows, cols)");
  detail::require(cols >= 0, where, "cols", cols,
                  "must be >= 0: describe the tensor with rfc::tile_load(rows, cols) or "
                  "rfc::tile_store(rows, cols)");
}

} // namespace transforms_detail

/// Checks and binds a load chain on the host (masks' shapes, causal_mask's q_len, ...), as the
/// whole-tensor ops do at the call; throws rowfuse::error naming the argument.
template <class T, class... Nodes>
tile_transforms<load_expr<T, Nodes...>> bind(load_expr<T, Nodes...> const& expr) {
  index_t const rows = expr.input.rows, cols = expr.input.cols;
  transforms_detail::check_shape(rows, cols);
  load_expr<T, Nodes...> bound{
      expr.input, rowfuse::detail::bind_chain(expr.nodes, "rf::collective", rows, cols)};
  return {bound, cols, transforms_detail::widest_aligned_pack(bound)};
}

/// Checks and binds a store chain on the host: dropout's threshold and Philox keys, cast's
/// scale; an fp8 T without rf::cast fails to compile, as for the whole-tensor ops.
template <class T, class... Nodes>
tile_transforms<store_expr<T, Nodes...>> bind(store_expr<T, Nodes...> const& expr) {
  rowfuse::detail::check_store_expr<store_expr<T, Nodes...>>();
  index_t const rows = expr.output.rows, cols = expr.output.cols;
  transforms_detail::check_shape(rows, cols);
  store_expr<T, Nodes...> bound{
      expr.output, rowfuse::detail::bind_chain(expr.nodes, "rf::collective", rows, cols)};
  return {bound, cols, transforms_detail::widest_aligned_pack(bound)};
}

namespace transforms_detail {

/// Runs a bound chain over the pack x of tensor elements (row, col0 .. col0 + N - 1).
template <int N, class Expr, class Context>
__device__ __forceinline__ void run_chain(tile_transforms<Expr> const& chain, float (&x)[N],
                                          index_t row, index_t col0, Context& context) {
  if constexpr (chain_length<Expr> == 0) {
    return;
  } else if constexpr (!needs_aligned_packs<Expr>) {
    detail::apply_chain(chain.expr.nodes, x, row, col0, context);
  } else {
    if (N <= chain.aligned_pack && col0 % N == 0) {
      detail::apply_chain(chain.expr.nodes, x, row, col0, context);
    } else {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j) {
        float one[1] = {x[j]};
        detail::apply_chain(chain.expr.nodes, one, row, col0 + j, context);
        x[j] = one[0];
      }
    }
  }
}

} // namespace transforms_detail

/// The load chain on the pack x of tensor elements (row, col0 ..).
template <int N, class Expr>
__device__ __forceinline__ void transform_loaded(tile_transforms<Expr> const& chain, float (&x)[N],
                                                 index_t row, index_t col0) {
  load_context context{true, chain.tensor_cols};
  transforms_detail::run_chain(chain, x, row, col0, context);
}

/// The store chain on the pack y of tensor elements (row, col0 ..), rounded to the output type
/// into `raw`. `context.amax` gathers rf::cast's max |y|.
template <int N, class Expr>
__device__ __forceinline__ void
transform_stored(tile_transforms<Expr> const& chain, float (&y)[N], index_t row, index_t col0,
                 store_context<float>& context, typename Expr::element_type (&raw)[N]) {
  transforms_detail::run_chain(chain, y, row, col0, context);
  bool const saturate = chain.expr.saturates();
  ROWFUSE_UNROLL
  for (int j = 0; j < N; ++j)
    raw[j] = detail::narrow<typename Expr::element_type>(y[j], saturate);
}

/// rf::cast's amax of one call: the warp's max |y| folded into *amax with one atomic. Every
/// lane of the warp calls it.
template <class Expr>
__device__ __forceinline__ void flush_amax(tile_transforms<Expr> const& chain,
                                           store_context<float> const& context) {
  if constexpr (Expr::has_cast) {
    float* const amax = chain.expr.amax_output();
    if (amax == nullptr)
      return;
    float m = context.amax;
    ROWFUSE_UNROLL
    for (int lane_mask = 16; lane_mask > 0; lane_mask /= 2)
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, lane_mask));
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    if (lane == 0)
      detail::atomic_max_nonnegative(amax, m);
  }
}

/// A tile's values, slot by slot, as every collective starts from them: `values[s]` holds row
/// slot s's packs (pack p at p * Layout::pack), `count[s]` how many of them are real (a prefix;
/// 0 for a padding slot).
template <tile_layout Layout> struct tile_values {
  static constexpr int per_slot = Layout::packs_per_row * Layout::pack;
  float values[Layout::row_slots][per_slot];
  int count[Layout::row_slots];
};

/// Reads `thread`'s part of the tile from `source` (tile_detail::from_registers, from_shared)
/// through the load chain. Padding stays unread, its values 0.
template <tile_layout Layout, class Source, class In>
__device__ __forceinline__ void load_tile(Source const& source, tile_transforms<In> const& in,
                                          tile_origin origin, int thread,
                                          tile_values<Layout>& tile) {
  constexpr int pack = Layout::pack;
  int const held = packs_held<Layout>(thread);
  ROWFUSE_UNROLL
  for (int s = 0; s < Layout::row_slots; ++s) {
    bool const row_held = holds_row<Layout>(thread, s);
    int const r = Layout::tile_row(thread, s);
    tile.count[s] = row_held ? held * pack : 0;
    ROWFUSE_UNROLL
    for (int p = 0; p < Layout::packs_per_row; ++p) {
      float x[pack] = {};
      if (row_held && p < held) {
        int const c = Layout::tile_col(thread, p);
        source.template read<pack>(s, p, r, c, x);
        transform_loaded(in, x, origin.row + r, origin.col + c);
      }
      ROWFUSE_UNROLL
      for (int j = 0; j < pack; ++j)
        tile.values[s][p * pack + j] = x[j];
    }
  }
}

/// Finishes every real pack of `thread` with `finish(slot, pack values, tensor row, tensor
/// col)`, runs the store chain, rounds to the output type and writes to `sink`
/// (tile_detail::to_registers, to_shared); then rf::cast's amax, if any (every lane of the warp
/// calls).
template <tile_layout Layout, class Sink, class Out, class Finish>
__device__ __forceinline__ void store_tile(Sink const& sink, tile_transforms<Out> const& out,
                                           tile_origin origin, int thread,
                                           tile_values<Layout> const& tile, Finish finish) {
  static_assert(std::is_same_v<typename Sink::element_type, typename Out::element_type>,
                "rowfuse: the store chain's element type (rfc::tile_store<T>) must be the "
                "output's element type");
  constexpr int pack = Layout::pack;
  int const held = packs_held<Layout>(thread);
  store_context<float> context{out.tensor_cols, 0.0f};
  ROWFUSE_UNROLL
  for (int s = 0; s < Layout::row_slots; ++s) {
    if (!holds_row<Layout>(thread, s))
      continue;
    int const r = Layout::tile_row(thread, s);
    ROWFUSE_UNROLL
    for (int p = 0; p < Layout::packs_per_row; ++p) {
      if (p >= held)
        continue;
      int const c = Layout::tile_col(thread, p);
      float y[pack];
      ROWFUSE_UNROLL
      for (int j = 0; j < pack; ++j)
        y[j] = tile.values[s][p * pack + j];
      finish(s, y, origin.row + r, origin.col + c);
      typename Out::element_type raw[pack];
      transform_stored(out, y, origin.row + r, origin.col + c, context, raw);
      sink.template write<pack>(s, p, r, c, raw);
    }
  }
  flush_amax(out, context);
}

} // namespace rowfuse::collective
