// The one place the benchmark applies rowfuse's dropout outside a fused chain: the unfused
// dropout kernel. It goes through the library's own dropout_node, so the mask matches rf::dropout's
// bit for bit whatever the node draws per element (words of a Philox quad, 16-bit halves, ...). If
// the node's interface changes, this file is all that follows it.
#pragma once

#include <cstdint>

#include <rowfuse/expr/store_transforms.hpp>

#include "harness.hpp"

namespace bench {

/// rf::dropout(dropout_p, dropout_seed, dropout_offset), checked and bound to the shape as the
/// ops bind it.
inline rowfuse::dropout_node bound_dropout(long rows, long cols) {
  return rowfuse::dropout(dropout_p, dropout_seed, dropout_offset)
      .bind("rowfuse-bench", rows, cols);
}

/// Drops or scales v[0 .. N), the elements (row, col0 .. col0 + N) of a [rows, cols] tensor.
/// Packs that start at a multiple of N let the node draw one Philox result for several elements.
template <int N>
__host__ __device__ __forceinline__ void
apply_dropout(rowfuse::dropout_node const& node, float (&v)[N], long row, long col0, long cols) {
  rowfuse::store_context<float> context{cols, 0.0f};
  node.apply<N>(v, row, col0, context);
}

} // namespace bench
