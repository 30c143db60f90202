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
// User functors need none of this: rf::load(...) | f wraps f in a map_node.
#pragma once

#include <cstddef>
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

/// Runs the nodes of a chain, left to right, each over the whole pack: a node with an operand
/// then issues one vector load per pack rather than one scalar load per element.
template <int N, class V, class Context, class... Nodes>
ROWFUSE_HD void apply_chain(boost::hana::tuple<Nodes...> const& nodes, V (&x)[N], index_t row,
                            index_t col0, Context& context) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (boost::hana::at_c<I>(nodes).template apply<N>(x, row, col0, context), ...);
  }
  (std::index_sequence_for<Nodes...>{});
}

} // namespace detail
} // namespace rowfuse
