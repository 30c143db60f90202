// traffic.cu: the ceiling of the residual block's memory traffic, apart from any row reduction.
// Element-wise kernels over 2^27 fp16 elements, each thread one 16-byte pack a stream, one pack a
// thread (no persistent grid), timed like rowfuse-bench (bench/experiments/median_time.cuh: a
// 256 MiB memset before each launch, events, median of 30) against cudaMemcpyAsync of half the
// counted bytes timed right after. (The run of call81a was built from db71d64, whose own copy of
// that timing loop this replaced.)
//   copy1:  y = x                                 (read 1, write 1: 4 bytes an element)
//   add2:   y = x + r                             (read 2, write 1: 6)
//   drop2:  y = dropout(x + bias) + r             (read 2, write 1: 6; Philox-4x32-10 a pack)
//   tee2:   h = dropout(x + bias) + r, y = h      (read 2, write 2: 8)
// The dropout draws rowfuse's own philox_quad, element i half i % 2 of word (i % 8) / 2 of block
// i / 8, kept where the 16-bit number is at least p * 65536 (rf::dropout's rule).
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>

#include "rowfuse/detail/philox.hpp"

#include "../../../experiments/median_time.cuh"

namespace {

constexpr long long elements = 1ll << 27;
constexpr int cols = 32768;

struct alignas(16) pack {
  __half2 h[4];
};

__global__ void copy1(pack const* x, pack* y, long long packs) {
  long long const i = blockIdx.x * 256ll + threadIdx.x;
  if (i < packs)
    y[i] = x[i];
}

__global__ void add2(pack const* x, pack const* r, pack* y, long long packs) {
  long long const i = blockIdx.x * 256ll + threadIdx.x;
  if (i >= packs)
    return;
  pack const a = x[i], b = r[i];
  pack out;
  for (int k = 0; k < 4; ++k)
    out.h[k] = __hadd2(a.h[k], b.h[k]);
  y[i] = out;
}

__device__ pack dropped(pack const& a, pack const& bias, pack const& b,
                        rowfuse::detail::philox_schedule const& keys, long long i) {
  rowfuse::detail::philox_u32x4 const bits = rowfuse::detail::philox_quad(keys, 7, i);
  pack out;
  for (int k = 0; k < 4; ++k) {
    float2 v = __half22float2(__hadd2(a.h[k], bias.h[k]));
    std::uint32_t const w = bits.v[k];
    v.x = (w & 0xffffu) >= 6554u ? v.x * (1.0f / 0.9f) : 0.0f;
    v.y = (w >> 16) >= 6554u ? v.y * (1.0f / 0.9f) : 0.0f;
    out.h[k] = __hadd2(__float22half2_rn(v), b.h[k]);
  }
  return out;
}

__global__ void drop2(pack const* x, pack const* r, pack const* bias, pack* y, long long packs,
                      rowfuse::detail::philox_schedule keys) {
  long long const i = blockIdx.x * 256ll + threadIdx.x;
  if (i >= packs)
    return;
  y[i] = dropped(x[i], bias[i % (cols / 8)], r[i], keys, i);
}

__global__ void tee2(pack const* x, pack const* r, pack const* bias, pack* y, pack* h,
                     long long packs, rowfuse::detail::philox_schedule keys) {
  long long const i = blockIdx.x * 256ll + threadIdx.x;
  if (i >= packs)
    return;
  pack const out = dropped(x[i], bias[i % (cols / 8)], r[i], keys, i);
  h[i] = out;
  y[i] = out;
}

__global__ void fill(pack* p, long long packs, std::uint32_t salt) {
  long long const i = blockIdx.x * 256ll + threadIdx.x;
  if (i >= packs)
    return;
  pack v;
  for (int k = 0; k < 4; ++k) {
    std::uint32_t const hash = (std::uint32_t(i) * 2654435761u) ^ (salt + k * 40503u);
    v.h[k] = __floats2half2_rn(float(hash & 0xff) / 32.0f - 4.0f,
                               float((hash >> 8) & 0xff) / 32.0f - 4.0f);
  }
  p[i] = v;
}

} // namespace

int main() {
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::fprintf(stderr, "traffic: no CUDA device\n");
    return 1;
  }
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  long long const packs = elements / 8;
  std::size_t const bytes = elements * 2;
  pack *x, *r, *y, *h, *bias;
  void *flush, *copy_src, *copy_dst;
  std::size_t const flush_bytes = 256u << 20;
  cudaMalloc(&x, bytes);
  cudaMalloc(&r, bytes);
  cudaMalloc(&y, bytes);
  cudaMalloc(&h, bytes);
  cudaMalloc(&bias, cols * 2);
  cudaMalloc(&flush, flush_bytes);
  cudaMalloc(&copy_src, bytes * 2);
  cudaMalloc(&copy_dst, bytes * 2);
  unsigned const grid = unsigned(packs / 256);
  fill<<<grid, 256>>>(x, packs, 1);
  fill<<<grid, 256>>>(r, packs, 2);
  fill<<<1, cols / 8>>>(bias, cols / 8, 3);
  auto const keys = rowfuse::detail::philox_key_schedule(std::uint64_t{1234});

  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  median_time const median_ms{2, 30, flush, flush_bytes, start, stop};
  std::printf("device,%s\nkernel,bytes_per_element,us,copy_us,ratio_to_copy\n", prop.name);
  auto report = [&](char const* name, int bytes_per_element, auto launch) {
    std::size_t const counted = std::size_t(elements) * bytes_per_element;
    double const op = median_ms(launch);
    double const copy = median_ms(
        [&] { cudaMemcpyAsync(copy_dst, copy_src, counted / 2, cudaMemcpyDeviceToDevice); });
    std::printf("%s,%d,%.1f,%.1f,%.3f\n", name, bytes_per_element, op * 1e3, copy * 1e3, copy / op);
  };
  for (int pass = 0; pass < 2; ++pass) {
    report("copy1", 4, [&] { copy1<<<grid, 256>>>(x, y, packs); });
    report("add2", 6, [&] { add2<<<grid, 256>>>(x, r, y, packs); });
    report("drop2", 6, [&] { drop2<<<grid, 256>>>(x, r, bias, y, packs, keys); });
    report("tee2", 8, [&] { tee2<<<grid, 256>>>(x, r, bias, y, h, packs, keys); });
  }
  cudaError_t const status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    std::fprintf(stderr, "traffic: %s\n", cudaGetErrorString(status));
    return 1;
  }
  return 0;
}
