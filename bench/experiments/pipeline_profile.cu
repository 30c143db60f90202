// Experiment (not part of the build), issue 12: the library calls of rowfuse-bench's pipelines
// (bench/pipelines.cuh's expressions and parameters), fp16, one pipeline at one width, rows =
// 2^26 / cols, each call made three times, for a profiler: ncu takes the second launch of the
// row kernel (-s 1 -c 1) and bench/experiments/sass_mix.py sums its executed SASS by opcode.
//   nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//     -lineinfo bench/experiments/pipeline_profile.cu src/*.cpp -o /tmp/pipeline_profile
//   ncu -k regex:register_kernel -s 1 -c 1 --set full --import-source yes -o rep \
//     /tmp/pipeline_profile residual 4096
//   ncu -i rep.ncu-rep --page source --csv --print-source sass > residual_4096-sass.csv
//   python3 bench/experiments/sass_mix.py residual_4096-sass.csv 67108864
// Pipelines: attention, residual, residual_tee, layernorm_fp8, and layernorm (the op alone).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <rowfuse/rowfuse.cuh>

namespace rf = rowfuse;
using rf::index_t;
using element = __half;
using fp8 = __nv_fp8_e4m3;

/// p[i] uniform in [lo, hi) from a hash of i: random, never all zeros.
__global__ void fill(element* p, index_t n, float lo, float hi) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n;
       i += index_t(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    p[i] = __float2half(lo + (hi - lo) * float(h & 0xffffff) / float(0x1000000));
  }
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PIPELINE COLS\n", argv[0]);
    return 2;
  }
  char const* const pipeline = argv[1];
  index_t const cols = std::atoll(argv[2]);
  index_t const rows = (index_t(1) << 26) / cols;
  index_t const n = rows * cols;
  element *x, *residual, *y, *h, *bias, *gamma, *beta;
  float* amax;
  cudaMalloc(&x, n * sizeof(element));
  cudaMalloc(&residual, n * sizeof(element));
  cudaMalloc(&y, n * sizeof(element));
  cudaMalloc(&h, n * sizeof(element));
  cudaMalloc(&bias, cols * sizeof(element));
  cudaMalloc(&gamma, cols * sizeof(element));
  cudaMalloc(&beta, cols * sizeof(element));
  cudaMalloc(&amax, sizeof(float));
  fill<<<1024, 256>>>(x, n, -4.0f, 4.0f);
  fill<<<1024, 256>>>(residual, n, -1.0f, 1.0f);
  fill<<<64, 256>>>(bias, cols, -0.5f, 0.5f);
  fill<<<64, 256>>>(gamma, cols, 0.5f, 1.5f);
  fill<<<64, 256>>>(beta, cols, -0.5f, 0.5f);
  cudaMemset(amax, 0, sizeof(float));
  auto const affine =
      rf::affine(static_cast<element const*>(gamma), static_cast<element const*>(beta));
  auto const in = rf::load(static_cast<element const*>(x), rows, cols);
  auto const sum = in | rf::bias(static_cast<element const*>(bias)) | rf::dropout(0.1f, 1234, 0) |
                   rf::add(static_cast<element const*>(residual));
  for (int call = 0; call < 3; ++call) {
    if (!std::strcmp(pipeline, "residual"))
      rf::layernorm(sum, rf::store(y), affine, 1e-5f);
    else if (!std::strcmp(pipeline, "residual_tee"))
      rf::layernorm(sum | rf::tee(h), rf::store(y), affine, 1e-5f);
    else if (!std::strcmp(pipeline, "layernorm_fp8"))
      rf::layernorm(in, rf::store(reinterpret_cast<fp8*>(y)) | rf::cast<fp8>(64.0f, amax), affine,
                    1e-5f);
    else if (!std::strcmp(pipeline, "layernorm"))
      rf::layernorm(in, rf::store(y), affine, 1e-5f);
    else if (!std::strcmp(pipeline, "attention"))
      rf::softmax(in | rf::scale(0.125f) | rf::causal_mask(cols),
                  rf::store(y) | rf::dropout(0.1f, 1234, 0));
    else {
      std::fprintf(stderr, "unknown pipeline %s\n", pipeline);
      return 2;
    }
  }
  cudaError_t const status = cudaDeviceSynchronize();
  std::printf("%s %lld: %s\n", pipeline, static_cast<long long>(cols), cudaGetErrorString(status));
  return status != cudaSuccess;
}
