// What every transform node is, and how a chain of them runs over a pack of elements.
//
// A node is a small copyable struct with
//   static constexpr bool load_side, store_side;   where it may be piped
//   static constexpr char const* name;              for messages and rf::explain
//   template <int N, class V, class Context>
//   ROWFUSE_HD void apply(V (&x)[N], index_t row, index_t col0, Context&) const;
//                  x[j] is the element at (row, col0 + j); V is float in kernels, double in
//                  the host reference
//   Node bind(char const* where, index_t rows, index_t cols) const;   checks, host only
//   template <int N> bool aligned_for_pack() const;   may packs of N touch its operands
// and, to run on phased rows (rows off the 16-byte grid read in packs from each row's first column
// on it, engine/phased_row.cuh), without which a chain holding the node runs on single elements:
//   template <int N> bool phased_for_pack(detail::row_phase const&) const;
//                  are its operands on the grid wherever the input's row is (row_phase::admits),
//                  or read off it by read_off_grid below
// and, for what a node needs that does not depend on the values, one of two optional hooks:
//   template <int N> ROWFUSE_HD State read(index_t row, index_t col0) const;
//                  the node's operand pack from memory (bias, add, mask)
//   template <int N> ROWFUSE_HD State read_off_grid(index_t row, index_t col0) const;
//                  optional beside read: the same pack where col0 may be off the operand's grid
//                  (phased rows), so that an operand need not share the input's phase (rf::bias)
//   template <int N> ROWFUSE_HD State draw(index_t row, index_t col0, index_t cols) const;
//                  arithmetic on the indices alone (dropout's keep bits)
// with apply(x, row, col0, context, State const&) taking the result. An engine calls every
// read of a row's packs together with the input's loads, and every draw before the row's
// statistics, so that operand loads are in flight at once and Philox runs while they are
// (inside apply they would wait behind the previous node's arithmetic). A node with a draw may
// also draw inside apply(x, row, col0, context), seeing the values: the store side after the
// statistics of an op whose load side masks calls that one (rf::dropout skips a pack of +0).
// A node with a draw may also let a warp draw together:
//   template <int N, int Steps> ROWFUSE_HD detail::warp_draws_t<N, Steps>
//   draw_warp(index_t row, index_t warp_col0, index_t stride, index_t cols, int lane) const;
//                  called by all 32 lanes of a warp at once, in one row, with `stride` a multiple
//                  of 32 N; the N bits from bit s * N are draw<N> of this lane's pack at step s,
//                  (row, warp_col0 + s * stride + lane * N)
// which an engine whose lanes hold consecutive packs calls once a row instead of draw<N> at each:
// on single elements, and on phased rows, whose packs start mid-block (rf::dropout: one Philox
// call for about six elements where draw<1> makes one for each, Steps + 1 for a lane's packs of 8
// where draw<8> makes 2 Steps).
// A node whose read is one pack of an operand of the input's shape (rf::add's tensor, rf::mask's)
// may name that operand, `view<T const> const& operand_stream() const`: an engine that stages the
// input through shared memory stages the operand's packs beside it (engine/operand_streams.cuh),
// and hands apply the same words that read would have loaded.
// User functors need none of this: rf::load(...) | f wraps f in a map_node.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <boost/hana/at.hpp>
#include <boost/hana/tuple.hpp>

#include "../detail/config.hpp"

namespace rowfuse {

/// Built-in nodes derive from this, so that anything else piped into an expression is taken as
/// a user functor.
struct node_tag {};

template <class N>
concept builtin_node = std::is_base_of_v<node_tag, N>;

/// What a load-side node sees besides the values. `emit` is false on the passes of an engine
/// that re-reads the row only to compute statistics, so side effects (rf::tee, a dropout keep
/// mask) happen once. `cols` makes the element's linear index (row * cols + col) for dropout.
struct load_context {
  bool emit = true;
  index_t cols = 0;
};

/// What a store-side node sees besides the values. `cols` makes the element's linear index
/// (row * cols + col) for dropout; `amax` accumulates max |y| for rf::cast's amax output.
template <class V> struct store_context {
  index_t cols = 0;
  V amax = V(0);
};

namespace detail {

/// The state of a node without a read or draw hook.
struct no_state {};

template <int N, class Node>
concept reads_operand = requires(Node const& node, index_t i) {
  node.template read<N>(i, i);
};
template <int N, class Node>
concept reads_operand_off_grid = requires(Node const& node, index_t i) {
  node.template read_off_grid<N>(i, i);
};
template <int N, class Node>
concept draws_from_index = requires(Node const& node, index_t i) {
  node.template draw<N>(i, i, i);
};
/// A warp's draws of `Steps` packs of N a lane (draw_warp): N bits a step.
template <int N, int Steps>
using warp_draws_t = std::conditional_t<N * Steps <= 32, std::uint32_t, std::uint64_t>;

template <int N, int Steps, class Node>
concept draws_by_warp = requires(Node const& node, index_t i) {
  { node.template draw_warp<N, Steps>(i, i, i, i, 0) } -> std::same_as<warp_draws_t<N, Steps>>;
};

/// Whether a node of the chain draws packs of N from the index.
template <int N, class... Nodes>
inline constexpr bool chain_draws = (... || draws_from_index<N, Nodes>);
/// Whether a warp can draw a chain's decisions for `Steps` packs of N a lane together: one node
/// draws, and every node that draws can (draws_by_warp).
template <int N, int Steps, class... Nodes>
inline constexpr bool chain_draws_by_warp = chain_draws<N, Nodes...> &&
                                            (... && (!draws_from_index<N, Nodes> ||
                                                     draws_by_warp<N, Steps, Nodes>));

/// A node that names its operand stream (operand_stream(): an operand of the input's shape).
template <class Node>
concept streams_operand = requires(Node const& node) {
  node.operand_stream().row(index_t(0));
};

template <int N, class Node, class V, class Context>
concept draws_in_place = requires(Node const& node, V (&x)[N], index_t i, Context& context) {
  node.template apply<N>(x, i, i, context);
};

/// The node's read at (row, col0); `OffGrid` (a phased row) takes its read_off_grid where it has
/// one.
template <int N, bool OffGrid, class Node>
ROWFUSE_HD auto read_node(Node const& node, index_t row, index_t col0) {
  if constexpr (OffGrid && reads_operand_off_grid<N, Node>)
    return node.template read_off_grid<N>(row, col0);
  else if constexpr (reads_operand<N, Node>)
    return node.template read<N>(row, col0);
  else
    return no_state{};
}
template <int N, class Node>
ROWFUSE_HD auto draw_node(Node const& node, index_t row, index_t col0, index_t cols) {
  if constexpr (draws_from_index<N, Node>)
    return node.template draw<N>(row, col0, cols);
  else
    return no_state{};
}

/// Every node's read for the pack at (row, col0): one vector load per node with an operand (off
/// its grid, where `OffGrid`, the node's read_off_grid).
template <int N, bool OffGrid = false, class... Nodes>
ROWFUSE_HD auto read_chain(boost::hana::tuple<Nodes...> const& nodes, index_t row, index_t col0) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return boost::hana::tuple<decltype(read_node<N, false>(std::declval<Nodes const&>(), row,
                                                           col0))...>{
        read_node<N, OffGrid>(boost::hana::at_c<I>(nodes), row, col0)...};
  }
  (std::index_sequence_for<Nodes...>{});
}

/// Every node's draw for the pack at (row, col0).
template <int N, class... Nodes>
ROWFUSE_HD auto draw_chain(boost::hana::tuple<Nodes...> const& nodes, index_t row, index_t col0,
                           index_t cols) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return boost::hana::tuple<decltype(draw_node<N>(std::declval<Nodes const&>(), row, col0,
                                                    cols))...>{
        draw_node<N>(boost::hana::at_c<I>(nodes), row, col0, cols)...};
  }
  (std::index_sequence_for<Nodes...>{});
}

/// Every node's draw_warp: for each node that draws, a word whose bits s * N .. s * N + N - 1 are
/// its draw<N> at step s.
template <int N, int Steps, class... Nodes>
ROWFUSE_HD auto draw_chain_by_warp(boost::hana::tuple<Nodes...> const& nodes, index_t row,
                                   index_t warp_col0, index_t stride, index_t cols, int lane) {
  auto const one = [&](auto const& node) {
    if constexpr (draws_from_index<N, std::remove_cvref_t<decltype(node)>>)
      return node.template draw_warp<N, Steps>(row, warp_col0, stride, cols, lane);
    else
      return no_state{};
  };
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return boost::hana::tuple<decltype(one(std::declval<Nodes const&>()))...>{
        one(boost::hana::at_c<I>(nodes))...};
  }
  (std::index_sequence_for<Nodes...>{});
}

/// The chain's draw<N> at step `step` from draw_chain_by_warp's words.
template <int N, class... Nodes, class Words>
ROWFUSE_HD auto draw_chain_at_step(Words const& words, int step) {
  auto const one = [&](auto const& word) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(word)>, no_state>)
      return no_state{};
    else
      return std::uint32_t(word >> (step * N)) & std::uint32_t((std::uint64_t{1} << N) - 1u);
  };
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return boost::hana::tuple<decltype(one(boost::hana::at_c<I>(words)))...>{
        one(boost::hana::at_c<I>(words))...};
  }
  (std::index_sequence_for<Nodes...>{});
}

template <int N, class... Nodes>
using read_chain_t = decltype(read_chain<N>(std::declval<boost::hana::tuple<Nodes...> const&>(),
                                            index_t(0), index_t(0)));
template <int N, class... Nodes>
using draw_chain_t = decltype(draw_chain<N>(std::declval<boost::hana::tuple<Nodes...> const&>(),
                                            index_t(0), index_t(0), index_t(0)));

/// Runs the nodes of a chain, left to right, each over the whole pack, handing each node its
/// read or draw result.
template <int N, class V, class Context, class Reads, class Draws, class... Nodes>
ROWFUSE_HD void apply_chain(boost::hana::tuple<Nodes...> const& nodes, V (&x)[N], index_t row,
                            index_t col0, Context& context, Reads const& reads,
                            Draws const& draws) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto const apply_one = [&](auto const& node, auto const& read, auto const& draw) {
      using node_t = std::remove_cvref_t<decltype(node)>;
      if constexpr (reads_operand<N, node_t>)
        node.template apply<N>(x, row, col0, context, read);
      else if constexpr (draws_from_index<N, node_t>)
        node.template apply<N>(x, row, col0, context, draw);
      else
        node.template apply<N>(x, row, col0, context);
    };
    (apply_one(boost::hana::at_c<I>(nodes), boost::hana::at_c<I>(reads),
               boost::hana::at_c<I>(draws)),
     ...);
  }
  (std::index_sequence_for<Nodes...>{});
}

/// The same, reading and drawing first: every operand load of the pack is issued before the
/// first node's arithmetic.
template <int N, class V, class Context, class... Nodes>
ROWFUSE_HD void apply_chain(boost::hana::tuple<Nodes...> const& nodes, V (&x)[N], index_t row,
                            index_t col0, Context& context) {
  auto const reads = read_chain<N>(nodes, row, col0);
  auto const draws = draw_chain<N>(nodes, row, col0, context.cols);
  apply_chain(nodes, x, row, col0, context, reads, draws);
}

/// The same where the values are known and nothing was drawn ahead (the store side after the
/// statistics): the reads first, and each node with a draw draws inside its apply where it can.
template <int N, class V, class Context, class... Nodes>
ROWFUSE_HD void apply_chain_drawing_in_place(boost::hana::tuple<Nodes...> const& nodes, V (&x)[N],
                                             index_t row, index_t col0, Context& context) {
  auto const reads = read_chain<N>(nodes, row, col0);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    auto const apply_one = [&](auto const& node, auto const& read) {
      using node_t = std::remove_cvref_t<decltype(node)>;
      if constexpr (reads_operand<N, node_t>)
        node.template apply<N>(x, row, col0, context, read);
      else if constexpr (draws_in_place<N, node_t, V, Context>)
        node.template apply<N>(x, row, col0, context);
      else
        node.template apply<N>(x, row, col0, context, draw_node<N>(node, row, col0, context.cols));
    };
    (apply_one(boost::hana::at_c<I>(nodes), boost::hana::at_c<I>(reads)), ...);
  }
  (std::index_sequence_for<Nodes...>{});
}

} // namespace detail
} // namespace rowfuse
