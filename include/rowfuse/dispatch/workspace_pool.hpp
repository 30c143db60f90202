// Where the calls' workspaces come from (the backward ops' partials, the norms' operands copied at
// each phase): a stream-ordered memory pool of rowfuse's own per device, which keeps what it has
// allocated instead of handing it back at every synchronisation.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

#include "../error.hpp"

namespace rowfuse::detail {

/// The pool rowfuse takes its workspaces from on `device` (cudaMallocFromPoolAsync), created on
/// first use with a release threshold of UINT64_MAX: the memory of the largest workspace in use
/// at once stays reserved until the process ends. The device's default pool hands its unused
/// memory back at every synchronisation (threshold 0), and mapping it again cost each
/// layernorm_backward call 12-18 % (bench/NOTES.md, seventh session). nullptr where the device
/// gives no pool of its own; the caller then takes the default one. Any host thread may ask.
cudaMemPool_t workspace_pool(int device);

/// Device memory for one call, allocated and freed in the order of `stream` (from
/// workspace_pool, which keeps its memory between calls; cudaFreeAsync): nothing synchronises,
/// the kernels that use it run before the free, and the caller passes no workspace. 0 bytes:
/// none. `where` and `what` name the call and the memory in the error of a failed allocation.
class stream_buffer {
public:
  stream_buffer(std::size_t bytes, cudaStream_t stream, char const* where, char const* what)
      : stream_(stream) {
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
      fail(where, ": could not allocate the ", bytes, " bytes of ", what, ": ",
           cudaGetErrorName(status), ": ", cudaGetErrorString(status));
  }
  stream_buffer(stream_buffer const&) = delete;
  stream_buffer& operator=(stream_buffer const&) = delete;
  ~stream_buffer() {
    if (data_ != nullptr)
      cudaFreeAsync(data_, stream_);
  }
  float* floats(std::size_t offset = 0) const { return static_cast<float*>(data_) + offset; }
  void* data() const { return data_; }

private:
  void* data_ = nullptr;
  cudaStream_t stream_;
};

} // namespace rowfuse::detail
