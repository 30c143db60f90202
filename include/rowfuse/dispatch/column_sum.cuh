// Host side of the deterministic sums over rows (the norm backward's dgamma and dbeta): the
// stream-ordered workspace of per-chunk partials and the launch of engine::column_sum_kernel.
#pragma once

#include <algorithm>
#include <cstddef>

#include <cuda_runtime.h>

#include "../engine/column_sum.cuh"
#include "../error.hpp"
#include "plan.hpp"

namespace rowfuse::detail {

/// Warps a block of the column sum has: fixed, since it is part of the summation order.
inline constexpr int column_sum_warps = 8;

/// Device memory for one call, allocated and freed in the order of `stream`
/// (cudaMallocAsync / cudaFreeAsync from the device's default pool): nothing synchronises, the
/// kernels that use it run before the free, and the caller passes no workspace. 0 bytes: none.
class stream_buffer {
public:
  stream_buffer(std::size_t bytes, cudaStream_t stream, char const* where) : stream_(stream) {
    if (bytes == 0)
      return;
    cudaError_t const status = cudaMallocAsync(&data_, bytes, stream);
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

/// out[c] = sum over the chunks of partials[k * cols + c] (engine::column_sum_kernel), on
/// `stream` after the kernel that wrote the partials. `p` names the call in errors. (A template,
/// so that only translation units that call a norm backward compile the kernel.)
template <int Warps = column_sum_warps>
void launch_column_sum(float const* partials, index_t chunks, index_t cols, float* out,
                       cudaStream_t stream, plan const& p) {
  index_t const blocks = std::min<index_t>((cols + 31) / 32, (index_t(1) << 31) - 1);
  engine::column_sum_kernel<Warps>
      <<<unsigned(blocks), 32 * Warps, 0, stream>>>(partials, chunks, cols, out);
  check_launch(cudaGetLastError(), p);
}

} // namespace rowfuse::detail
