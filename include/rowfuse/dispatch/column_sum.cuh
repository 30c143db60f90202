// Host side of the deterministic sums over rows (the norm backward's dgamma and dbeta): the
// stream-ordered workspace of per-chunk partials and the launch of engine::column_sum_kernel.
#pragma once

#include <algorithm>
#include <cstddef>

#include <cuda_runtime.h>

#include "../engine/column_sum.cuh"
#include "../error.hpp"
#include "plan.hpp"
#include "workspace_pool.hpp"

namespace rowfuse::detail {

/// Warps a block of the column sum has: fixed, since it is part of the summation order.
inline constexpr int column_sum_warps = 8;

/// Device memory for one call, allocated and freed in the order of `stream` (from
/// workspace_pool, which keeps its memory between calls; cudaFreeAsync): nothing synchronises,
/// the kernels that use it run before the free, and the caller passes no workspace. 0 bytes:
/// none.
class stream_buffer {
public:
  stream_buffer(std::size_t bytes, cudaStream_t stream, char const* where) : stream_(stream) {
    if (bytes == 0)
      return;
    int device = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess) {
      cudaMemPool_t const pool = workspace_pool(device);
      status = pool != nullptr ? cudaMallocFromPoolAsync(&data_, bytes, pool, stream)
                               : cudaMallocAsync(&data_, bytes, stream);
    }
    if (status != cudaSuccess)
      fail(where, ": could not allocate the ", bytes,
           " bytes of dgamma/dbeta partials: ", cudaGetErrorName(status), ": ",
           cudaGetErrorString(status));
  }
  stream_buffer(stream_buffer const&) = delete;
  stream_buffer& operator=(stream_buffer const&) = delete;
  ~stream_buffer() {
    if (data_ != nullptr)
      cudaFreeAsync(data_, stream_);
  }
  float* floats(std::size_t offset = 0) const { return static_cast<float*>(data_) + offset; }

private:
  void* data_ = nullptr;
  cudaStream_t stream_;
};

/// Chunks one block of the column sum takes: more chunks are cut into slices of this many (more
/// where a grid's 65535 block rows would not hold them), summed side by side into a scratch row
/// each, then the slices' rows are summed. Part of the summation order (a function of the chunk
/// count alone). A block of 8 warps then waits on 8 loads a running sum; narrow rows (16384
/// chunks of 32 columns: one block of columns) otherwise left one block to read every partial.
inline constexpr index_t column_sum_slice_chunks = 512;
inline constexpr index_t column_sum_slice(index_t chunks) {
  index_t const fitting = (chunks + 65534) / 65535;
  return fitting > column_sum_slice_chunks ? fitting : column_sum_slice_chunks;
}

/// Slices of the first launch of a column sum over `chunks` (1: one launch, no scratch).
inline constexpr index_t column_sum_slices(index_t chunks) {
  index_t const slice = column_sum_slice(chunks);
  return chunks <= slice ? 1 : (chunks + slice - 1) / slice;
}

/// Floats of scratch launch_column_sum needs for `chunks` partial rows of `cols` columns.
inline constexpr std::size_t column_sum_scratch_floats(index_t chunks, index_t cols) {
  index_t const slices = column_sum_slices(chunks);
  return slices > 1 ? std::size_t(slices) * std::size_t(cols) : 0;
}

/// out[c] = sum over the chunks of partials[k * cols + c] (engine::column_sum_kernel), on
/// `stream` after the kernel that wrote the partials: one launch, or, past
/// column_sum_slice(chunks) chunks, one launch of a slice a block row into `scratch`
/// (column_sum_scratch_floats) and one over the slices' rows. `p` names the call in errors. (A
/// template, so that only translation units that call a norm backward compile the kernel.)
template <int Warps = column_sum_warps>
void launch_column_sum(float const* partials, index_t chunks, index_t cols, float* out,
                       float* scratch, cudaStream_t stream, plan const& p) {
  unsigned const column_blocks = unsigned(std::min<index_t>((cols + 31) / 32, 65535));
  index_t const slices = column_sum_slices(chunks);
  if (slices == 1) {
    engine::column_sum_kernel<Warps>
        <<<dim3(column_blocks), 32 * Warps, 0, stream>>>(partials, chunks, cols, chunks, out);
  } else {
    engine::column_sum_kernel<Warps>
        <<<dim3(column_blocks, unsigned(slices)), 32 * Warps, 0, stream>>>(
            partials, chunks, cols, column_sum_slice(chunks), scratch);
    check_launch(cudaGetLastError(), p);
    engine::column_sum_kernel<Warps>
        <<<dim3(column_blocks), 32 * Warps, 0, stream>>>(scratch, slices, cols, slices, out);
  }
  check_launch(cudaGetLastError(), p);
}

} // namespace rowfuse::detail
