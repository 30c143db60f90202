// Load chains that an engine may run twice over the same input: what lets it keep the raw input
// on chip (in shared memory) and apply the chain again where it needs the values again.
#pragma once

#include <type_traits>

#include "../expr/expression.hpp"
#include "../expr/load_transforms.hpp"

namespace rowfuse::engine {

/// Load nodes that neither read memory besides the input nor write any: running them again
/// gives the same values and costs no memory traffic. rf::map's functor is taken at its word (a
/// const call operator on a value); a functor that writes through a captured pointer would write
/// twice, which rf::tee is there for.
template <class Node> inline constexpr bool pure_load_node = false;
template <> inline constexpr bool pure_load_node<scale_node> = true;
template <> inline constexpr bool pure_load_node<causal_mask_node> = true;
template <class F> inline constexpr bool pure_load_node<map_node<F>> = true;

/// Whether every node of `Load` is pure. A chain that reads an operand (bias, add, mask) would
/// read it again, one that tees would write again.
template <class Load> inline constexpr bool pure_load_chain = false;
template <class T, class... Nodes>
inline constexpr bool pure_load_chain<load_expr<T, Nodes...>> = (true && ... &&
                                                                 pure_load_node<Nodes>);

/// Whether `Load` has no nodes: its values are its input's, widened to float.
template <class Load> inline constexpr bool bare_load_chain = false;
template <class T> inline constexpr bool bare_load_chain<load_expr<T>> = true;

/// Load nodes that give the same values when run again over a row an engine keeps on chip, at no
/// DRAM traffic, given what it keeps beside the input (`OperandsStaged`: the chain's operand
/// streams, engine::operand_streams): pure nodes; rf::dropout, whose decisions the engine draws
/// once a row and hands to every run; rf::bias, whose per-column vector each run reads again
/// (the same bytes for every row: from L1 or L2); rf::tee, which writes only on the run that
/// emits (load_context::emit); and rf::add or rf::mask where their operand stream is staged.
template <class Node, bool OperandsStaged>
inline constexpr bool replayable_load_node = pure_load_node<Node> ||
                                             std::is_same_v<Node, dropout_node> ||
                                             (OperandsStaged && detail::streams_operand<Node>);
template <class E, bool OperandsStaged>
inline constexpr bool replayable_load_node<bias_node<E>, OperandsStaged> = true;
template <class E, bool OperandsStaged>
inline constexpr bool replayable_load_node<tee_node<E>, OperandsStaged> = true;

/// Whether every node of `Load` is replayable (replayable_load_node).
template <class Load, bool OperandsStaged> inline constexpr bool replayable_load_chain = false;
template <class T, bool OperandsStaged, class... Nodes>
inline constexpr bool replayable_load_chain<load_expr<T, Nodes...>, OperandsStaged> =
    (true && ... && replayable_load_node<Nodes, OperandsStaged>);

} // namespace rowfuse::engine
