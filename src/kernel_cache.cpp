// The launcher's cache of runtime queries (dispatch/kernel_cache.hpp).
#include <map>
#include <mutex>
#include <tuple>

#include <cuda_runtime.h>

#include "rowfuse/dispatch/kernel_cache.hpp"
#include "rowfuse/error.hpp"

namespace rowfuse::detail {

namespace {

using key = std::tuple<void const*, int, int, int, std::size_t>;

void check(cudaError_t status, char const* what) {
  if (status != cudaSuccess)
    fail(what, " failed: ", cudaGetErrorName(status), ": ", cudaGetErrorString(status));
}

/// The kernel's attributes; a device older than every architecture the program was built for has
/// no image of it, which gets a message that says so (the runtime's alone names no device).
cudaFuncAttributes attributes_of(kernel_shape const& shape) {
  cudaFuncAttributes attributes{};
  cudaError_t const status = cudaFuncGetAttributes(&attributes, shape.kernel);
  if (status == cudaErrorNoKernelImageForDevice) {
    (void)cudaGetLastError();
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, shape.device), "cudaGetDeviceProperties");
    fail("device ", shape.device, " (", properties.name, ", compute capability ", properties.major,
         ".", properties.minor,
         ") is older than every architecture this program was built for "
         "(CMAKE_CUDA_ARCHITECTURES): cudaErrorNoKernelImageForDevice");
  }
  check(status, "cudaFuncGetAttributes");
  return attributes;
}

int query(kernel_shape const& shape) {
  cudaFuncAttributes const attributes = attributes_of(shape);
  // Past 48 KB of static and dynamic shared memory together a kernel must opt in. The
  // attribute is per kernel, not per size: opt in to the device's whole per-block limit, so
  // that no later, larger size of the same kernel can find it set too low.
  if (shape.dynamic_smem > 0) {
    int optin = 0;
    check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, shape.device),
          "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin)");
    check(cudaFuncSetAttribute(shape.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               optin - int(attributes.sharedSizeBytes)),
          "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  }
  int multiprocessors = 0;
  check(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, shape.device),
        "cudaDeviceGetAttribute(MultiProcessorCount)");
  if (shape.cluster_blocks <= 1) {
    int blocks = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, shape.kernel, shape.block_threads,
                                                        shape.dynamic_smem),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return blocks * multiprocessors;
  }
  if (shape.cluster_blocks > 8)
    check(cudaFuncSetAttribute(shape.kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
          "cudaFuncSetAttribute(NonPortableClusterSizeAllowed)");
  cudaLaunchAttribute cluster{};
  cudaLaunchConfig_t const config =
      launch_config(shape, unsigned(shape.cluster_blocks), nullptr, cluster);
  int clusters = 0;
  cudaError_t const status = cudaOccupancyMaxActiveClusters(&clusters, shape.kernel, &config);
  if (status != cudaSuccess) {
    // A device that does not grant the cluster size answers with an error rather than 0: the
    // same verdict. Clear it, so that the next launch check does not find it.
    (void)cudaGetLastError();
    return 0;
  }
  return clusters;
}

} // namespace

int resident_units(kernel_shape const& shape) {
  static std::mutex mutex;
  static std::map<key, int> answers;
  key const k{shape.kernel, shape.device, shape.block_threads, shape.cluster_blocks,
              shape.dynamic_smem};
  {
    std::lock_guard<std::mutex> const lock(mutex);
    if (auto const found = answers.find(k); found != answers.end())
      return found->second;
  }
  // Asked outside the lock: two threads may both ask the first time, and get the same answer.
  int const units = query(shape);
  std::lock_guard<std::mutex> const lock(mutex);
  answers.emplace(k, units);
  return units;
}

} // namespace rowfuse::detail
