// How the cluster engine (cluster_engine.cuh) cuts a row into its blocks' slices: plain
// arithmetic that the kernel and the host (dispatch/cluster_sizing.hpp, src/plan.cpp) share, so
// the shared memory the host sizes is exactly what the kernel indexes.
#pragma once

#include "../detail/config.hpp"

namespace rowfuse::detail {

/// Packs in one block's slice: the row's packs split into C slices of ceil(packs / C) packs,
/// the last slice shorter (or empty when C does not divide a short row).
constexpr index_t cluster_slice_packs(index_t cols, int pack, int cluster_blocks) {
  index_t const packs = (cols + pack - 1) / pack;
  return (packs + cluster_blocks - 1) / cluster_blocks;
}

} // namespace rowfuse::detail
