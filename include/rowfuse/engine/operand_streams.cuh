// A load chain's operand streams: the operands of its nodes that have the input's shape (rf::add's
// residual, rf::mask's mask), which a node names with operand_stream() (expr/node.hpp). An engine
// that stages its input by cp.async can stage their packs beside it, so that on a block that walks
// rows the next row's operand packs are in flight while this row is reduced, as its input's are;
// read straight to registers at the top of each row, they are issued only once the row before is
// stored.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/hana/at.hpp>

#include "../detail/async_copy.cuh"
#include "../detail/vector_io.hpp"
#include "../expr/expression.hpp"

namespace rowfuse::engine {

using rowfuse::detail::streams_operand;

/// The element type of a node's operand stream (`type`), its bytes (`bytes`: 0 for a node without
/// one), and whether its packs of N elements can travel by cp.async (`copyable<N>`).
template <class Node, bool = streams_operand<Node>> struct stream_element {
  static constexpr int bytes = 0;
  template <int N> static constexpr bool copyable = true;
};
template <class Node> struct stream_element<Node, true> {
  using type = std::remove_cv_t<typename std::remove_cvref_t<
      decltype(std::declval<Node const&>().operand_stream())>::element_type>;
  static constexpr int bytes = int(sizeof(type));
  template <int N> static constexpr bool copyable = detail::async_copy_size_ok<type, N>;
};

/// The operand streams of a load chain `Load`. In shared memory each stream takes a region of
/// `region_elements` elements (slots x packs x threads x pack, as the input's), in node order;
/// pack p of slot s of thread t is element ((s * P + p) * B + t) * N of its region, as the
/// input's packs are laid out in theirs, so that a warp's 16-byte reads are consecutive.
template <class Load> struct operand_streams;
template <class T, class... Nodes> struct operand_streams<load_expr<T, Nodes...>> {
  using load_type = load_expr<T, Nodes...>;

  static constexpr int count = (0 + ... + int(streams_operand<Nodes>));
  /// Bytes of one element of every stream together.
  static constexpr int element_bytes = (0 + ... + stream_element<Nodes>::bytes);
  /// Bytes of one element of the first stream (0 without one): its region comes first.
  static constexpr int first_bytes = [] {
    int const bytes[] = {0, stream_element<Nodes>::bytes...};
    for (int b : bytes)
      if (b > 0)
        return b;
    return 0;
  }();

  /// Whether every stream's packs of N elements can travel by cp.async.
  template <int N>
  static constexpr bool copyable = (true && ... && stream_element<Nodes>::template copyable<N>);

  /// Issues the cp.async of every stream's pack at (row, col0) to place `index` of its region;
  /// the regions begin at `regions` (shared memory).
  template <int N>
  __device__ static void stage(load_type const& load, index_t row, index_t col0, char* regions,
                               int region_elements, int index) {
    for_each_stream(
        [&](auto node_index, auto const& node) {
          using element = typename stream_element<node_at<decltype(node_index)::value>>::type;
          auto* const destination = reinterpret_cast<element*>(
              regions + offset(decltype(node_index)::value, region_elements));
          detail::async_copy_pack<N>(
              destination + index * N,
              static_cast<element const*>(node.operand_stream().row(row) + col0));
        },
        load);
  }

  /// The chain's reads for the pack at (row, col0), as load.read<N, OffGrid>(row, col0) gives
  /// them, but each stream's pack from place `index` of its region.
  template <int N, bool OffGrid = false>
  __device__ static typename load_type::template reads_type<N>
  read_staged(load_type const& load, index_t row, index_t col0, char const* regions,
              int region_elements, int index) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return typename load_type::template reads_type<N>{read_one<I, N, OffGrid>(
          boost::hana::at_c<I>(load.nodes), row, col0, regions, region_elements, index)...};
    }
    (std::index_sequence_for<Nodes...>{});
  }

private:
  template <std::size_t I> using node_at = std::tuple_element_t<I, std::tuple<Nodes...>>;

  /// Byte offset of node I's region: the regions of the streams before it.
  static constexpr std::size_t offset(std::size_t node, int region_elements) {
    constexpr int bytes[] = {0, stream_element<Nodes>::bytes...};
    std::size_t before = 0;
    for (std::size_t i = 0; i < node; ++i)
      before += std::size_t(bytes[i + 1]);
    return before * std::size_t(region_elements);
  }

  template <std::size_t I, int N, bool OffGrid, class Node>
  __device__ static auto read_one(Node const& node, index_t row, index_t col0, char const* regions,
                                  int region_elements, int index) {
    if constexpr (streams_operand<Node>) {
      auto const* const source = reinterpret_cast<typename stream_element<Node>::type const*>(
          regions + offset(I, region_elements));
      return detail::load_words<N>(source + index * N);
    } else {
      return detail::read_node<N, OffGrid>(node, row, col0);
    }
  }

  template <class F> __device__ static void for_each_stream(F&& f, load_type const& load) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (
          [&] {
            if constexpr (streams_operand<node_at<I>>)
              f(std::integral_constant<std::size_t, I>{}, boost::hana::at_c<I>(load.nodes));
          }(),
          ...);
    }
    (std::index_sequence_for<Nodes...>{});
  }
};

} // namespace rowfuse::engine
