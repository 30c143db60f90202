// Experiment (not part of the build): does the workspace's stream-ordered allocation cost time?
// Times rf::layernorm_backward (fp16, dgamma and dbeta; x, dy and the statistics constant, which
// does not matter for the time) per call with a device synchronisation after each, with the
// default pool's release threshold at 0 (the runtime's default: unused memory handed back at each
// synchronisation) and at UINT64_MAX (kept), at several widths, 2^27 elements, twice each. Built
// when rowfuse took its workspace from the default pool (before dispatch/workspace_pool.hpp):
//   nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//     bench/experiments/workspace_pool.cu src/*.cpp -o /tmp/workspace_pool
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cuda_fp16.h>
#include <rowfuse/rowfuse.cuh>
#include <vector>
namespace rf = rowfuse;
int main() {
  long const elems = 1L << 27;
  __half *x, *dy, *dx, *gamma, *beta;
  float *mean, *rstd, *dgamma, *dbeta;
  cudaMalloc(&x, elems * 2);
  cudaMalloc(&dy, elems * 2);
  cudaMalloc(&dx, elems * 2);
  cudaMalloc(&gamma, 262144 * 2);
  cudaMalloc(&beta, 262144 * 2);
  cudaMalloc(&mean, (elems / 32) * 4);
  cudaMalloc(&rstd, (elems / 32) * 4);
  cudaMalloc(&dgamma, 262144 * 4);
  cudaMalloc(&dbeta, 262144 * 4);
  cudaMemset(x, 0x3c, elems * 2);
  cudaMemset(dy, 0x3c, elems * 2);
  cudaMemset(gamma, 0x3c, 262144 * 2);
  cudaMemset(beta, 0, 262144 * 2);
  cudaMemset(mean, 0, (elems / 32) * 4);
  cudaMemset(rstd, 0, (elems / 32) * 4);
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (std::uint64_t threshold : {std::uint64_t(0), UINT64_MAX, std::uint64_t(0), UINT64_MAX}) {
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
    cudaMemPoolTrimTo(pool, 0);
    for (long cols : {128L, 512L, 1024L, 4096L, 32768L, 65536L}) {
      long const rows = elems / cols;
      auto call = [&] {
        rf::layernorm_backward(rf::load(x, rows, cols), rf::load(dy, rows, cols), rf::store(dx),
                               rf::affine(gamma, beta), rf::row_stats{mean, rstd},
                               rf::affine_grads{dgamma, dbeta});
      };
      call();
      cudaDeviceSynchronize();
      std::vector<float> ms;
      for (int i = 0; i < 15; ++i) {
        cudaEventRecord(e0);
        call();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        cudaDeviceSynchronize();
        float t;
        cudaEventElapsedTime(&t, e0, e1);
        ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      std::printf("threshold %s cols %6ld median %.4f ms min %.4f max %.4f\n",
                  threshold ? "kept" : "0   ", cols, ms[7], ms[0], ms[14]);
    }
  }
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
