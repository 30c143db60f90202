// Host side of the deterministic sums over rows (the norm backward's dgamma and dbeta): the
// launch of engine::column_sum_kernel over the per-chunk partials.
#pragma once

#include <algorithm>
#include <cstddef>

#include <cuda_runtime.h>

#include "../engine/column_sum.cuh"
#include "../error.hpp"
#include "plan.hpp"

namespace rowfuse::detail {

/// Warps a block of the column sum has where it sums `summed` chunks a slice: past 128, the fewest
/// (a power of two, at most MaxWarps) whose column_sum_chains running sums a thread take every
/// chunk of the slice, so that each thread issues all its loads at once and the pass is one round
/// of memory latency; at most 128 (rows wide enough for blocks across the columns to fill the GPU)
/// 8 warps, two loads a running sum. Part of the summation order (a function of the chunk count
/// alone). Forty-third session, H200 (bench/NOTES.md): blocks of 8 warps over slices of 512 chunks
/// took eight rounds, 9.5-10 us a gradient at 256-2048 columns (4 MB of partials read at 9 % of
/// DRAM bandwidth); at 128 chunks (16384-65536 columns) blocks of 32 warps, 4 loads a thread,
/// lost 0.01-0.03 of a copy to them and blocks of 16 warps 0.005-0.008.
template <int MaxWarps = engine::column_sum_max_warps>
constexpr int column_sum_warps(index_t summed) {
  constexpr int wide_rows_warps = 8;
  if (summed <= index_t(wide_rows_warps) * 2 * engine::column_sum_chains)
    return wide_rows_warps < MaxWarps ? wide_rows_warps : MaxWarps;
  int warps = 1;
  while (warps < MaxWarps && index_t(warps) * engine::column_sum_chains < summed)
    warps *= 2;
  return warps;
}

/// Chunks one block of the column sum takes: more chunks are cut into slices of this many (more
/// where a grid's 65535 block rows would not hold them), summed side by side into a scratch row
/// each, then the slices' rows are summed. Part of the summation order (a function of the chunk
/// count alone). A slice is one load a thread of each running sum of the largest blocks, so that
/// narrow rows (16384 chunks of 32 columns: one block of columns) still spread over 64 blocks.
template <int MaxWarps = engine::column_sum_max_warps>
constexpr index_t column_sum_slice(index_t chunks) {
  index_t const slice_chunks = index_t(MaxWarps) * engine::column_sum_chains;
  index_t const fitting = (chunks + 65534) / 65535;
  return fitting > slice_chunks ? fitting : slice_chunks;
}

/// Slices of the first launch of a column sum over `chunks` (1: one launch, no scratch).
template <int MaxWarps = engine::column_sum_max_warps>
constexpr index_t column_sum_slices(index_t chunks) {
  index_t const slice = column_sum_slice<MaxWarps>(chunks);
  return chunks <= slice ? 1 : (chunks + slice - 1) / slice;
}

/// Floats of scratch launch_column_sums needs for `chunks` partial rows of `cols` columns, for
/// each matrix it sums.
template <int MaxWarps = engine::column_sum_max_warps>
constexpr std::size_t column_sum_scratch_floats(index_t chunks, index_t cols) {
  index_t const slices = column_sum_slices<MaxWarps>(chunks);
  return slices > 1 ? std::size_t(slices) * std::size_t(cols) : 0;
}

/// out[j][c] = sum over the chunks of partials[j][k * cols + c] for each of the `jobs` matrices
/// (engine::column_sum_kernel; 1 or 2, the norms' dgamma and dbeta, in the same launches), on
/// `stream` after the kernel that wrote the partials: one launch, or, past
/// column_sum_slice(chunks) chunks, one launch of a slice a block row into `scratch`
/// (column_sum_scratch_floats for each matrix, one after the other) and one over the slices'
/// rows. Each matrix's sums take the same order whether it is summed alone or beside another.
/// `p` names the call in errors. (A template, so that only translation units that call a norm
/// backward compile the kernel.)
template <int MaxWarps = engine::column_sum_max_warps>
void launch_column_sums(float const* const (&partials)[engine::column_sum_jobs::max_jobs],
                        float* const (&out)[engine::column_sum_jobs::max_jobs], int jobs,
                        index_t chunks, index_t cols, float* scratch, cudaStream_t stream,
                        plan const& p) {
  if (jobs <= 0)
    return;
  unsigned const column_blocks = unsigned(std::min<index_t>((cols + 31) / 32, 65535));
  index_t const slices = column_sum_slices<MaxWarps>(chunks);
  engine::column_sum_jobs first{}, second{};
  for (int j = 0; j < jobs; ++j) {
    float* const slice_sums =
        scratch + std::size_t(j) * column_sum_scratch_floats<MaxWarps>(chunks, cols);
    first.partials[j] = partials[j];
    first.out[j] = slices == 1 ? out[j] : slice_sums;
    second.partials[j] = slice_sums;
    second.out[j] = out[j];
  }
  index_t const slice = slices == 1 ? chunks : column_sum_slice<MaxWarps>(chunks);
  engine::column_sum_kernel<MaxWarps>
      <<<dim3(column_blocks, unsigned(slices), unsigned(jobs)),
         32 * column_sum_warps<MaxWarps>(slice), 0, stream>>>(first, chunks, cols, slice);
  if (slices > 1) {
    check_launch(cudaGetLastError(), p);
    engine::column_sum_kernel<MaxWarps>
        <<<dim3(column_blocks, 1, unsigned(jobs)), 32 * column_sum_warps<MaxWarps>(slices), 0,
           stream>>>(second, slices, cols, slices);
  }
  check_launch(cudaGetLastError(), p);
}

} // namespace rowfuse::detail
