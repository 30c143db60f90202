// Build-wide basics: the index type and the host/device function qualifiers.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace rowfuse {

/// Rows, columns, strides and element offsets. 64 bits because rows * ld passes 2^31 on
/// today's tensors (2^27 elements is the benchmark size; a 64K-vocabulary batch of 32K rows
/// is 2^31 on its own).
using index_t = std::int64_t;

} // namespace rowfuse

/// Every node, op and helper that both the kernels and the host reference run.
#define ROWFUSE_HD __host__ __device__ __forceinline__

/// Full unrolling of the short fixed loops over a pack; a no-op for the host compiler.
/// ROWFUSE_NO_UNROLL keeps a loop a loop (one expensive body at a time).
#if defined(__CUDACC__)
#define ROWFUSE_UNROLL _Pragma("unroll")
#define ROWFUSE_NO_UNROLL _Pragma("unroll 1")
#else
#define ROWFUSE_UNROLL
#define ROWFUSE_NO_UNROLL
#endif
