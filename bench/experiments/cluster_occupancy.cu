// Experiment (not part of the build): how many thread-block clusters of each size the GPU holds at
// once (cudaOccupancyMaxActiveClusters), for blocks of 256-1024 threads and dynamic shared memory
// that leaves one to five blocks an SM. A persistent grid of clusters is sized by this figure
// (dispatch/launch.cuh, complete_grid), so it says how many SMs such a grid leaves idle.
//   nvcc -arch=sm_90 -o /tmp/cluster_occupancy bench/experiments/cluster_occupancy.cu
#include <cstdio>
#include <cuda_runtime.h>

namespace {

/// Touches its shared memory so that the launch configuration, not the code, sets occupancy.
__global__ void probe(float* out) {
  extern __shared__ float staging[];
  if (out != nullptr)
    out[threadIdx.x] = staging[threadIdx.x];
}

} // namespace

int main() {
  constexpr int max_smem = 200 * 1024;
  cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, max_smem);
  cudaFuncSetAttribute(probe, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) {
    std::fprintf(stderr, "cluster_occupancy: no CUDA device\n");
    return 2;
  }
  std::printf("SMs %d\n", sms);
  for (int threads : {1024, 512, 256})
    for (int smem_kb : {200, 100, 64, 40})
      for (int cluster : {1, 2, 4, 8, 16}) {
        cudaLaunchConfig_t config{};
        config.gridDim = dim3(unsigned(cluster * 64));
        config.blockDim = dim3(unsigned(threads));
        config.dynamicSmemBytes = std::size_t(smem_kb) * 1024;
        cudaLaunchAttribute attribute[1];
        attribute[0].id = cudaLaunchAttributeClusterDimension;
        attribute[0].val.clusterDim.x = unsigned(cluster);
        attribute[0].val.clusterDim.y = 1;
        attribute[0].val.clusterDim.z = 1;
        config.attrs = attribute;
        config.numAttrs = 1;
        int clusters = -1, per_sm = 0;
        cudaError_t const status = cudaOccupancyMaxActiveClusters(&clusters, probe, &config);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, probe, threads,
                                                      std::size_t(smem_kb) * 1024);
        std::printf("threads %4d smem %3d KB blocks/SM %d cluster %2d: %4d clusters = %4d blocks "
                    "of %4d (%s)\n",
                    threads, smem_kb, per_sm, cluster, clusters, clusters * cluster, per_sm * sms,
                    cudaGetErrorString(status));
      }
  return 0;
}
