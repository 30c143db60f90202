// The backward ops' workspace pool (dispatch/workspace_pool.hpp).
#include <cstdint>
#include <map>
#include <mutex>

#include <cuda_runtime.h>

#include "rowfuse/dispatch/workspace_pool.hpp"

namespace rowfuse::detail {

namespace {

/// A pool for `device` that keeps its memory, or nullptr (the error cleared) where the runtime
/// gives none.
cudaMemPool_t create_pool(int device) {
  cudaMemPoolProps properties{};
  properties.allocType = cudaMemAllocationTypePinned;
  properties.location.type = cudaMemLocationTypeDevice;
  properties.location.id = device;
  cudaMemPool_t pool = nullptr;
  if (cudaMemPoolCreate(&pool, &properties) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  std::uint64_t keep = UINT64_MAX;
  if (cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) {
    (void)cudaGetLastError();
    cudaMemPoolDestroy(pool);
    return nullptr;
  }
  return pool;
}

} // namespace

cudaMemPool_t workspace_pool(int device) {
  // Never destroyed: a pool outlives every stream that may still free into it, and destroying one
  // after the runtime has shut down at exit is an error of its own.
  static std::mutex mutex;
  static std::map<int, cudaMemPool_t> pools;
  std::lock_guard<std::mutex> const lock(mutex);
  auto const found = pools.find(device);
  if (found != pools.end())
    return found->second;
  return pools[device] = create_pool(device);
}

} // namespace rowfuse::detail
