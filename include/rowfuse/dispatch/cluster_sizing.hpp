// How the cluster engine (engine/cluster_engine.cuh) cuts a row into slices and how large a
// cluster a width needs: plain host arithmetic that the plan (src/plan.cpp) and the launcher share.
#pragma once

#include <cstddef>

#include "../detail/config.hpp"
#include "../engine/cluster_slices.hpp"
#include "plan.hpp"

namespace rowfuse::detail {

/// Static shared memory of cluster_kernel (CUB's warp aggregates, 32 x a partial of at most 12
/// bytes, and two slots) kept back from the per-block opt-in limit, as block_smem keeps
/// tuning::streaming_reserved_smem.
inline constexpr std::size_t cluster_reserved_smem = 1024;

/// What the CUDA runtime reserves per resident block on sm_80/sm_90
/// (cudaDevAttrReservedSharedMemoryPerBlock), counted against the SM's shared memory.
inline constexpr std::size_t cluster_system_smem_per_block = 1024;

/// Largest cluster launch_cluster accepts: 8 portable, 16 with the non-portable opt-in, which
/// H100 and H200 grant (cudaOccupancyMaxActiveClusters still decides whether 16 fit).
inline constexpr int cluster_max_blocks = 16;

/// Dynamic shared memory of one block: its slice (a whole number of packs) at `cache_bytes`
/// a column (4 for the fp32 cache, sizeof(T) when engine::caches_raw_input<Load>).
constexpr std::size_t cluster_slice_bytes(index_t cols, int cluster_blocks, int pack = 1,
                                          int cache_bytes = 4) {
  return std::size_t(cluster_slice_packs(cols, pack, cluster_blocks)) * std::size_t(pack) *
         std::size_t(cache_bytes);
}

/// Whether a row of `cols` fits in clusters of `cluster_blocks` blocks at all (one block per
/// SM at worst).
inline bool cluster_fits(index_t cols, int cluster_blocks, device_info const& dev, int pack = 1,
                         int cache_bytes = 4) {
  if (dev.compute_capability < 90 || cluster_blocks < 1 || cluster_blocks > cluster_max_blocks)
    return false;
  return cluster_slice_bytes(cols, cluster_blocks, pack, cache_bytes) + cluster_reserved_smem <=
         dev.shared_memory_per_block_optin;
}

/// Whether two blocks of the cluster engine fit on one SM by shared memory, so that one
/// cluster's barrier and reduction overlap another's loads. H200: 228 KB per SM, so at most
/// 114 KB - 1 KB (runtime) - 1 KB (static) = 112 KB of slice per block.
inline bool cluster_fits_twice_per_sm(index_t cols, int cluster_blocks, device_info const& dev,
                                      int pack = 1, int cache_bytes = 4) {
  return cluster_fits(cols, cluster_blocks, dev, pack, cache_bytes) &&
         2 * (cluster_slice_bytes(cols, cluster_blocks, pack, cache_bytes) + cluster_reserved_smem +
              cluster_system_smem_per_block) <=
             dev.shared_memory_per_multiprocessor;
}

/// The cluster size for `cols`: the smallest of 2, 4, 8, 16 (up to max_blocks) that keeps two
/// blocks per SM, else the smallest that fits at all, else 0 (block_uncached's turn). Smallest,
/// because fewer blocks per row means fewer barrier participants and longer slices per
/// thread between barriers; two per SM, because a lone block idles the SM at every barrier.
inline int cluster_blocks_for(index_t cols, device_info const& dev, int pack = 1,
                              int cache_bytes = 4, int max_blocks = cluster_max_blocks) {
  for (int c = 2; c <= max_blocks; c *= 2)
    if (cluster_fits_twice_per_sm(cols, c, dev, pack, cache_bytes))
      return c;
  for (int c = 2; c <= max_blocks; c *= 2)
    if (cluster_fits(cols, c, dev, pack, cache_bytes))
      return c;
  return 0;
}

} // namespace rowfuse::detail
