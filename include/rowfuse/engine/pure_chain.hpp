// Load chains that an engine may run twice over the same input: what lets it keep the raw input
// on chip (in shared memory) and apply the chain again where it needs the values again.
#pragma once

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

} // namespace rowfuse::engine
