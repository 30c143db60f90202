// Load and store expressions: a view plus a chain of transform nodes, built with `|`.
//
//   rf::load(scores, rows, cols) | rf::scale(0.125f) | rf::causal_mask(q_len)
//   rf::store(probs) | rf::dropout(0.1f, seed, offset) | rf::cast<__half>()
//
// The chain is a boost::hana::tuple of nodes: its type is the composition (so the kernel is
// specialised for it and every call inlines), its values are the nodes' runtime parameters.
// Misuse is caught here, at compile time, with a message that says what to write instead.
#pragma once

#include <type_traits>

#include <boost/hana/any_of.hpp>
#include <boost/hana/append.hpp>
#include <boost/hana/bool.hpp>
#include <boost/hana/integral_constant.hpp>
#include <boost/hana/transform.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <boost/hana/unpack.hpp>

#include "../detail/numeric.hpp"
#include "../detail/vector_io.hpp"
#include "load_transforms.hpp"
#include "node.hpp"
#include "store_transforms.hpp"
#include "view.hpp"

namespace rowfuse {

namespace hana = boost::hana;

template <class T, class... Nodes> struct load_expr {
  using element_type = T;
  using nodes_type = hana::tuple<Nodes...>;
  static constexpr auto node_types = hana::tuple_t<Nodes...>;

  view<T const> input; // dense (no broadcast map): rows at input.dense_row(r)
  nodes_type nodes;

  index_t rows() const { return input.rows; }
  index_t cols() const { return input.cols; }

  /// What the chain's nodes read (operand packs) and draw (dropout's bits) for one pack.
  template <int N> using reads_type = detail::read_chain_t<N, Nodes...>;
  template <int N> using draws_type = detail::draw_chain_t<N, Nodes...>;

  /// x[j] = chain(input(row, col0 + j)). `context.emit` decides whether tee nodes write.
  template <int N, class V>
  ROWFUSE_HD void load(index_t row, index_t col0, V (&x)[N], load_context& context) const {
    T raw[N];
    read_input<N>(row, col0, raw);
    auto const reads = read<N>(row, col0);
    transform(raw, row, col0, x, context, reads, draw<N>(row, col0, context.cols));
  }

  /// The input's pack at (row, col0), one vector load.
  template <int N> ROWFUSE_HD void read_input(index_t row, index_t col0, T (&raw)[N]) const {
    detail::load_pack<N>(input.dense_row(row) + col0, raw);
  }
  /// The nodes' operand packs at (row, col0): issue with the input's load. `OffGrid`: col0 may be
  /// off the operands' grid (a phased row; node.hpp's read_off_grid).
  template <int N, bool OffGrid = false>
  ROWFUSE_HD reads_type<N> read(index_t row, index_t col0) const {
    return detail::read_chain<N, OffGrid>(nodes, row, col0);
  }
  /// The nodes' index-only arithmetic at (row, col0): run while the loads are in flight.
  template <int N> ROWFUSE_HD draws_type<N> draw(index_t row, index_t col0, index_t cols) const {
    return detail::draw_chain<N>(nodes, row, col0, cols);
  }

  /// Whether a warp can draw the chain's decisions for `Steps` packs of N a lane together, and
  /// those draws (node.hpp's draw_warp; bits s * N .. s * N + N - 1 of a node's word for the
  /// lane's pack at (row, warp_col0 + s * stride + lane * N)), and the draws of step s from them,
  /// as draw<N> there.
  template <int N, int Steps>
  static constexpr bool draws_by_warp = detail::chain_draws_by_warp<N, Steps, Nodes...>;
  template <int N, int Steps>
  ROWFUSE_HD auto draw_by_warp(index_t row, index_t warp_col0, index_t stride, index_t cols,
                               int lane) const {
    return detail::draw_chain_by_warp<N, Steps>(nodes, row, warp_col0, stride, cols, lane);
  }
  template <int N, class Words>
  ROWFUSE_HD draws_type<N> draw_at_step(Words const& words, int s) const {
    return detail::draw_chain_at_step<N, Nodes...>(words, s);
  }

  /// x[j] = chain(raw[j]), raw[j] the input at (row, col0 + j) already fetched (an engine that
  /// stages the input through shared memory, or reads it ahead), with the nodes' reads and draws
  /// at the same place.
  template <int N, class V>
  ROWFUSE_HD void transform(T const (&raw)[N], index_t row, index_t col0, V (&x)[N],
                            load_context& context, reads_type<N> const& reads,
                            draws_type<N> const& draws) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j)
      x[j] = detail::widen<V>(raw[j]);
    detail::apply_chain(nodes, x, row, col0, context, reads, draws);
  }
  template <int N, class V>
  ROWFUSE_HD void transform(T const (&raw)[N], index_t row, index_t col0, V (&x)[N],
                            load_context& context) const {
    transform(raw, row, col0, x, context, read<N>(row, col0), draw<N>(row, col0, context.cols));
  }
};

template <class T, class... Nodes> struct store_expr {
  using element_type = T;
  using nodes_type = hana::tuple<Nodes...>;
  static constexpr auto node_types = hana::tuple_t<Nodes...>;

  view<T> output; // dense (no broadcast map): rows at output.dense_row(r)
  nodes_type nodes;

  /// Whether the chain ends in rf::cast (and so owns rounding, scaling and amax).
  static constexpr bool has_cast = hana::any_of(
      node_types, [](auto t) { return hana::bool_c<is_cast_node<typename decltype(t)::type>>; });

  /// Saturation of the final rounding: rf::cast decides it; a plain store rounds like CUDA's
  /// conversions (overflow to inf).
  ROWFUSE_HD bool saturates() const {
    if constexpr (has_cast)
      return hana::at_c<sizeof...(Nodes) - 1>(nodes).saturate;
    else
      return false;
  }

  /// The nodes' index-only arithmetic at (row, col0) (dropout's bits): an engine runs it
  /// before the row's statistics, while the row's loads are in flight.
  template <int N> using draws_type = detail::draw_chain_t<N, Nodes...>;
  template <int N> ROWFUSE_HD draws_type<N> draw(index_t row, index_t col0, index_t cols) const {
    return detail::draw_chain<N>(nodes, row, col0, cols);
  }

  /// Runs the chain over y and writes output(row, col0 + j) = round(chain(y[j])). With
  /// DrawInPlace, nodes with a draw draw inside their apply, seeing y (rf::dropout skips a pack
  /// of +0): for results that hold such packs, those of a load chain that masks (masks_packs).
  /// Without, every draw comes first (a check a pack costs 0.02-0.05 of copy where it never
  /// skips: bench/NOTES.md).
  template <int N, bool DrawInPlace = false, class V>
  ROWFUSE_HD void store(index_t row, index_t col0, V (&y)[N], store_context<V>& context) const {
    if constexpr (DrawInPlace)
      detail::apply_chain_drawing_in_place(nodes, y, row, col0, context);
    else
      detail::apply_chain(nodes, y, row, col0, context);
    write<N>(row, col0, y);
  }
  /// The same with the draws made ahead by draw<N>(row, col0, cols).
  template <int N, class V>
  ROWFUSE_HD void store(index_t row, index_t col0, V (&y)[N], store_context<V>& context,
                        draws_type<N> const& draws) const {
    detail::apply_chain(nodes, y, row, col0, context, detail::read_chain<N>(nodes, row, col0),
                        draws);
    write<N>(row, col0, y);
  }

  /// Where rf::cast's amax output points, or null.
  ROWFUSE_HD float* amax_output() const {
    if constexpr (has_cast)
      return hana::at_c<sizeof...(Nodes) - 1>(nodes).amax;
    else
      return nullptr;
  }

private:
  /// output(row, col0 + j) = round(y[j]).
  template <int N, class V> ROWFUSE_HD void write(index_t row, index_t col0, V (&y)[N]) const {
    T raw[N];
    bool const saturate = saturates();
#ifdef __CUDA_ARCH__
    if constexpr (std::is_same_v<V, float>) {
      detail::narrow_pack<T>(y, raw, saturate);
    } else
#endif
    {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        raw[j] = detail::narrow<T>(y[j], saturate);
    }
    detail::store_pack<N>(output.dense_row(row) + col0, raw);
  }
};

/// Whether a load chain can mask whole packs (rf::causal_mask, rf::mask): the op's result then
/// holds packs of +0 (softmax's masked elements) that a store-side draw can skip.
template <class Load> inline constexpr bool masks_packs = false;
template <class T, class... Nodes>
inline constexpr bool masks_packs<load_expr<T, Nodes...>> =
    (... || (std::is_same_v<Nodes, causal_mask_node> || is_mask_node<Nodes>));

/// Whether a load chain writes its values out (rf::tee): the residual block that keeps its
/// pre-norm sum, which layernorm plans from shapes of its own (dispatch/tuning.hpp).
template <class Load> inline constexpr bool tees = false;
template <class T, class... Nodes>
inline constexpr bool tees<load_expr<T, Nodes...>> = (... || is_tee_node<Nodes>);

/// Whether a store chain drops values (rf::dropout): with a load chain that masks, the chain
/// of attention probabilities, which plans from shapes of its own (dispatch/tuning.hpp).
template <class Store> inline constexpr bool drops_values = false;
template <class T, class... Nodes>
inline constexpr bool drops_values<store_expr<T, Nodes...>> = (... ||
                                                               std::is_same_v<Nodes, dropout_node>);

/// Whether a load or store chain has no nodes: the op alone reads its input and writes its
/// output as stored (the op that the peers run; layernorm plans from shapes of its own then).
template <class Chain> inline constexpr bool is_bare = false;
template <class T> inline constexpr bool is_bare<load_expr<T>> = true;
template <class T> inline constexpr bool is_bare<store_expr<T>> = true;

// ---- building ------------------------------------------------------------------------------

/// The op's input: rows x cols elements of T, row r starting at data + r * ld (ld defaults to
/// cols). Any alignment; any ld >= cols.
template <input_element T>
constexpr load_expr<T> load(T const* data, index_t rows, index_t cols, index_t ld = -1) {
  return {view<T const>{data, rows, cols, ld == -1 ? cols : ld, {}, -1}, {}};
}

/// The op's output, of the input's shape; ld defaults to cols.
template <element T> constexpr store_expr<T> store(T* data, index_t ld = -1) {
  return {dense(data, -1, -1, ld), {}};
}
/// The op's output with its shape spelled out, checked against the input's at the call.
template <element T>
constexpr store_expr<T> store(T* data, index_t rows, index_t cols, index_t ld) {
  return {dense(data, rows, cols, ld), {}};
}

namespace detail {

template <class F> struct as_node {
  static_assert(std::is_copy_constructible_v<F>,
                "rowfuse: a user transform must be a copyable functor (it is passed to the kernel "
                "by value)");
  static_assert(std::is_invocable_r_v<float, F const&, float> ||
                    std::is_invocable_r_v<float, F const&, float, index_t, index_t>,
                "rowfuse: a user transform must be callable as f(float) -> float or "
                "f(float, index_t row, index_t col) -> float");
  using type = map_node<F>;
  static constexpr type make(F const& f) { return {{}, f}; }
};
template <builtin_node N> struct as_node<N> {
  using type = N;
  static constexpr N const& make(N const& n) { return n; }
};

} // namespace detail

/// Appends a transform to the load chain.
template <class T, class... Nodes, class Next>
constexpr auto operator|(load_expr<T, Nodes...> const& expr, Next const& next) {
  using node = typename detail::as_node<Next>::type;
  static_assert(!is_cast_node<node>,
                "rowfuse: rf::cast<T> is a store transform (it rounds the op's result): pipe it "
                "into rf::store(...), not rf::load(...)");
  static_assert(node::load_side, "rowfuse: this transform cannot be used on the load side");
  return load_expr<T, Nodes..., node>{expr.input,
                                      hana::append(expr.nodes, detail::as_node<Next>::make(next))};
}

/// Appends a transform to the store chain.
template <class T, class... Nodes, class Next>
constexpr auto operator|(store_expr<T, Nodes...> const& expr, Next const& next) {
  using node = typename detail::as_node<Next>::type;
  static_assert(node::store_side,
                "rowfuse: this is a load transform (bias, add, mask, causal_mask act on the "
                "input before the reduction): pipe it into rf::load(...), not rf::store(...)");
  static_assert(!store_expr<T, Nodes...>::has_cast,
                "rowfuse: rf::cast<T> must be the last store transform: nothing may follow the "
                "rounding to the output type");
  if constexpr (is_cast_node<node>) {
    static_assert(std::is_same_v<typename node::target_type, T>,
                  "rowfuse: rf::cast<U> must name the output view's element type: U differs "
                  "from the type of the pointer given to rf::store");
  }
  return store_expr<T, Nodes..., node>{expr.output,
                                       hana::append(expr.nodes, detail::as_node<Next>::make(next))};
}

// ---- checks at the call ----------------------------------------------------------------------

namespace detail {

/// Compile-time checks an op makes on its store expression as a whole.
template <class StoreExpr> constexpr void check_store_expr() {
  using T = typename StoreExpr::element_type;
  static_assert(!fp8_element<T> || StoreExpr::has_cast,
                "rowfuse: an fp8 output needs an explicit rf::cast<fp8 type>(scale, amax) as its "
                "last store transform: fp8 has too little range to round to without a scale");
  static_assert(!std::is_const_v<T>, "rowfuse: rf::store needs a writable (non-const) pointer");
}

/// Binds every view of the chain to the op's shape and checks every argument, throwing
/// rowfuse::error that names `where`, the argument and its value.
template <class... Nodes>
hana::tuple<Nodes...> bind_chain(hana::tuple<Nodes...> const& nodes, char const* where,
                                 index_t rows, index_t cols) {
  return hana::unpack(nodes, [&](auto const&... node) {
    return hana::tuple<Nodes...>{node.bind(where, rows, cols)...};
  });
}

template <class T, class... Nodes>
load_expr<T, Nodes...> bind(load_expr<T, Nodes...> const& expr, char const* where) {
  require(expr.input.rows >= 0, where, "rows", expr.input.rows, "must be >= 0");
  require(expr.input.cols >= 0, where, "cols", expr.input.cols, "must be >= 0");
  view<T const> input = expr.input;
  input.ld = input.ld == -1 ? input.cols : input.ld;
  input = input.bind(where, "input", input.rows, input.cols);
  return {input, bind_chain(expr.nodes, where, input.rows, input.cols)};
}

template <class T, class... Nodes>
store_expr<T, Nodes...> bind(store_expr<T, Nodes...> const& expr, char const* where, index_t rows,
                             index_t cols) {
  check_store_expr<store_expr<T, Nodes...>>();
  return {expr.output.bind(where, "output", rows, cols), bind_chain(expr.nodes, where, rows, cols)};
}

/// Whether packs of N elements are aligned for every operand of a chain (the caller checks the
/// input and output views themselves).
template <int N, class Expr> bool chain_allows_pack(Expr const& expr) {
  return hana::unpack(expr.nodes, [](auto const&... node) {
    return (true && ... && node.template aligned_for_pack<N>());
  });
}

/// Whether every operand of a chain is on the grid of packs of N wherever the input's row is
/// (phased rows; node.hpp): a node without phased_for_pack says no.
template <int N, class Expr>
bool chain_allows_phased_pack(Expr const& expr, row_phase const& phase) {
  return hana::unpack(expr.nodes, [&](auto const&... node) {
    auto const allows = [&](auto const& one) {
      if constexpr (requires { one.template phased_for_pack<N>(phase); })
        return one.template phased_for_pack<N>(phase);
      else
        return false;
    };
    return (true && ... && allows(node));
  });
}

} // namespace detail
} // namespace rowfuse
