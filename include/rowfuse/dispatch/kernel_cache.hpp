// What the launcher asks the CUDA runtime about one kernel on one device: the attributes it
// must set before a launch (shared memory past 48 KB, clusters past 8 blocks) and how many of
// its blocks or clusters fit at once. Each question is asked once per (kernel, device, shared
// memory) and kept; any host thread may ask at any time.
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

namespace rowfuse::detail {

/// One kernel's launch shape, as the cache keys it.
struct kernel_shape {
  void const* kernel = nullptr; // the __global__ function's address
  int device = 0;
  int block_threads = 0;
  int cluster_blocks = 1; // > 1: launched as clusters of this many blocks
  std::size_t dynamic_smem = 0;
};

/// The launch configuration of `grid` blocks of this shape on `stream`: clusters of
/// cluster_blocks when it is above 1, through the attribute `cluster`, which must outlive the
/// configuration.
inline cudaLaunchConfig_t launch_config(kernel_shape const& shape, unsigned grid,
                                        cudaStream_t stream, cudaLaunchAttribute& cluster) {
  cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = unsigned(shape.cluster_blocks);
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(unsigned(shape.block_threads));
  config.dynamicSmemBytes = shape.dynamic_smem;
  config.stream = stream;
  config.attrs = &cluster;
  config.numAttrs = shape.cluster_blocks > 1 ? 1 : 0;
  return config;
}

/// Prepares the kernel for launches of this shape (opts in to its dynamic shared memory and,
/// past 8 blocks, to non-portable clusters) and returns how many of its blocks (clusters, when
/// cluster_blocks > 1) are resident on the whole device at once. 0 means the shape cannot run
/// there. Throws rowfuse::error when the runtime refuses a query for any other reason.
int resident_units(kernel_shape const& shape);

} // namespace rowfuse::detail
