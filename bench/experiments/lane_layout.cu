// Does the way a group row's lanes cover its columns limit a narrow 16-bit row? (bench/NOTES.md,
// fifty-second session.) A lane of a group of G holds P packs of 8 at columns (p * G + lane) * 8,
// so one warp instruction of pack p touches 32 / G rows, 16 * G bytes of each: at 64 columns on
// two lanes, 16 lines a sector each, where a copy's instruction fills 4 lines. This times, on rows
// of `cols` fp16 columns (ld = cols, 2^27 elements, one tile of rows a block of 128 threads, a
// block a tile):
//   copy-lanes   each lane copies its packs (the engine's layout), no arithmetic;
//   copy-flat    the block's tile as flat 16-byte chunks, thread t chunk t, t + 128, ...;
//   rms-lanes    a row's sum of squares by its lanes (shuffles over G), y = x * rsqrt(mean):
//                loads and stores in the lanes' layout;
//   rms-in       the same, the tile copied flat into shared memory by cp.async first;
//   rms-in-out   the same, and y written back through shared memory and stored flat;
// each as a ratio to cudaMemcpyAsync of the same bytes timed in the same run. `lane_layout N
// capped` times the copies and rms-lanes under caps of 12, 8, 6 and 4 blocks an SM instead. Build:
// nvcc -std=c++20 -O3 -arch=sm_90 bench/experiments/lane_layout.cu -o lane_layout
#include <cstdio>
#include <cstdlib>
#include <string>

#include <cuda_fp16.h>

#include "median_time.cuh"

namespace {

constexpr int block_threads = 128;

enum class kind { copy_lanes, copy_flat, rms_lanes, rms_in, rms_in_out };
char const* name(kind k) {
  switch (k) {
  case kind::copy_lanes:
    return "copy-lanes";
  case kind::copy_flat:
    return "copy-flat";
  case kind::rms_lanes:
    return "rms-lanes";
  case kind::rms_in:
    return "rms-in";
  default:
    return "rms-in-out";
  }
}

__device__ float row_scale(uint4 const (&packs)[8], int packs_held, int group, int cols) {
  float sum = 0.f;
  for (int p = 0; p < packs_held; ++p) {
    __half2 const* h = reinterpret_cast<__half2 const*>(&packs[p]);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float2 const v = __half22float2(h[j]);
      sum = fmaf(v.x, v.x, fmaf(v.y, v.y, sum));
    }
  }
  for (int mask = 1; mask < group; mask *= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, mask);
  return rsqrtf(sum / float(cols) + 1e-5f);
}

__device__ void scale_packs(uint4 (&packs)[8], int packs_held, float scale) {
  for (int p = 0; p < packs_held; ++p) {
    __half2* h = reinterpret_cast<__half2*>(&packs[p]);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float2 const v = __half22float2(h[j]);
      h[j] = __floats2half2_rn(v.x * scale, v.y * scale);
    }
  }
}

__device__ void copy_async(void* shared, void const* global) {
  unsigned const address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(address), "l"(global) : "memory");
}

template <int Group, int Packs, kind Kind>
__global__ void __launch_bounds__(block_threads)
    layout_kernel(uint4 const* __restrict__ x, uint4* __restrict__ y, int cols) {
  constexpr int tile_rows = block_threads / Group;
  constexpr int tile_chunks = tile_rows * Group * Packs; // 16-byte chunks a tile
  __shared__ uint4 tile[tile_chunks];
  int const chunks_per_row = cols / 8;
  long const tile_first = long(blockIdx.x) * tile_chunks;
  int const t = int(threadIdx.x);
  int const lane = t % Group;
  int const tile_row = t / Group;
  auto const lane_chunk = [&](int p) { return tile_row * chunks_per_row + p * Group + lane; };

  if constexpr (Kind == kind::copy_flat) {
    uint4 v[Packs];
#pragma unroll
    for (int p = 0; p < Packs; ++p)
      v[p] = x[tile_first + p * block_threads + t];
#pragma unroll
    for (int p = 0; p < Packs; ++p)
      y[tile_first + p * block_threads + t] = v[p];
    return;
  }
  uint4 v[8];
  if constexpr (Kind == kind::copy_lanes || Kind == kind::rms_lanes) {
#pragma unroll
    for (int p = 0; p < Packs; ++p)
      v[p] = x[tile_first + lane_chunk(p)];
  } else {
#pragma unroll
    for (int p = 0; p < Packs; ++p)
      copy_async(&tile[p * block_threads + t], &x[tile_first + p * block_threads + t]);
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
#pragma unroll
    for (int p = 0; p < Packs; ++p)
      v[p] = tile[lane_chunk(p)];
  }
  if constexpr (Kind != kind::copy_lanes)
    scale_packs(v, Packs, row_scale(v, Packs, Group, cols));
  if constexpr (Kind == kind::rms_in_out) {
    __syncthreads();
#pragma unroll
    for (int p = 0; p < Packs; ++p)
      tile[lane_chunk(p)] = v[p];
    __syncthreads();
#pragma unroll
    for (int p = 0; p < Packs; ++p)
      y[tile_first + p * block_threads + t] = tile[p * block_threads + t];
  } else {
#pragma unroll
    for (int p = 0; p < Packs; ++p)
      y[tile_first + lane_chunk(p)] = v[p];
  }
}

__global__ void fill(__half* x, long n) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n;
       i += long(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u;
    h ^= h >> 15;
    x[i] = __float2half(float(h % 8000u) / 1000.f - 4.f);
  }
}

void check(cudaError_t e, char const* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

} // namespace

/// The least dynamic shared memory under which at most `blocks` blocks of `kernel` fit an SM
/// (0: as many as fit without any).
template <class Kernel> int shared_bytes_for(Kernel kernel, int blocks) {
  if (blocks <= 0)
    return 0;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024),
        "shared memory attribute");
  for (int bytes = 0; bytes <= 200 * 1024; bytes += 512) {
    int fit = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, block_threads, bytes),
          "occupancy");
    if (fit <= blocks)
      return bytes;
  }
  return 200 * 1024;
}

/// Times one kernel; `blocks_per_sm` > 0 caps the blocks an SM holds (by dynamic shared memory
/// the kernel does not use), to tell the bytes a thread has in flight from those of an SM.
template <int Group, int Packs, kind Kind>
void run(median_time const& timer, uint4 const* x, uint4* y, long elements, int blocks_per_sm = 0) {
  int const cols = Group * Packs * 8;
  long const tiles = elements / (long(block_threads) * Packs * 8);
  auto const kernel = layout_kernel<Group, Packs, Kind>;
  int const shared = shared_bytes_for(kernel, blocks_per_sm);
  int resident = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, block_threads, shared),
        "occupancy");
  double const ms = timer([&] { kernel<<<unsigned(tiles), block_threads, shared>>>(x, y, cols); });
  check(cudaGetLastError(), "launch");
  double const copy =
      timer([&] { cudaMemcpyAsync(y, x, size_t(elements) * 2, cudaMemcpyDeviceToDevice); });
  std::printf("%d,%d,%d,%s,%d,%.4f,%.4f,%.4f\n", cols, Group, Packs, name(Kind), resident, ms, copy,
              copy / ms);
}

/// The copies and rms-lanes at 16 (uncapped), 12, 8, 6 and 4 blocks an SM.
template <int Group, int Packs>
void run_capped(median_time const& timer, uint4 const* x, uint4* y, long elements) {
  for (int blocks : {0, 12, 8, 6, 4}) {
    run<Group, Packs, kind::copy_lanes>(timer, x, y, elements, blocks);
    run<Group, Packs, kind::copy_flat>(timer, x, y, elements, blocks);
    run<Group, Packs, kind::rms_lanes>(timer, x, y, elements, blocks);
  }
}

template <int Group, int Packs>
void run_all(median_time const& timer, uint4 const* x, uint4* y, long elements) {
  run<Group, Packs, kind::copy_lanes>(timer, x, y, elements);
  run<Group, Packs, kind::copy_flat>(timer, x, y, elements);
  run<Group, Packs, kind::rms_lanes>(timer, x, y, elements);
  run<Group, Packs, kind::rms_in>(timer, x, y, elements);
  run<Group, Packs, kind::rms_in_out>(timer, x, y, elements);
}

int main(int argc, char** argv) {
  int const passes = argc > 1 ? std::atoi(argv[1]) : 2;
  bool const capped = argc > 2 && std::string(argv[2]) == "capped";
  long const elements = 1l << 27;
  __half *x, *y;
  void* flush;
  size_t const flush_bytes = size_t(256) << 20;
  check(cudaMalloc(&x, elements * 2), "malloc x");
  check(cudaMalloc(&y, elements * 2), "malloc y");
  check(cudaMalloc(&flush, flush_bytes), "malloc flush");
  fill<<<1024, 256>>>(x, elements);
  median_time timer{2, 20, flush, flush_bytes, {}, {}};
  cudaEventCreate(&timer.start);
  cudaEventCreate(&timer.stop);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("# %s\ncols,group,packs,kind,blocks_per_sm,ms,copy_ms,ratio_to_copy\n", prop.name);
  auto const* in = reinterpret_cast<uint4 const*>(x);
  auto* out = reinterpret_cast<uint4*>(y);
  for (int pass = 0; capped && pass < passes; ++pass) {
    run_capped<8, 1>(timer, in, out, elements);  // 64 columns
    run_capped<4, 4>(timer, in, out, elements);  // 128 columns
    run_capped<16, 1>(timer, in, out, elements); // 128 columns
    run_capped<8, 4>(timer, in, out, elements);  // 256 columns
    run_capped<16, 2>(timer, in, out, elements); // 256 columns
  }
  for (int pass = 0; !capped && pass < passes; ++pass) {
    run_all<2, 4>(timer, in, out, elements);  // 64 columns, the tables' layernorm row
    run_all<8, 1>(timer, in, out, elements);  // 64 columns, QuACK's threads a row
    run_all<4, 2>(timer, in, out, elements);  // 64 columns
    run_all<4, 4>(timer, in, out, elements);  // 128 columns
    run_all<16, 1>(timer, in, out, elements); // 128 columns
    run_all<8, 4>(timer, in, out, elements);  // 256 columns
    run_all<16, 2>(timer, in, out, elements); // 256 columns
  }
  check(cudaDeviceSynchronize(), "sync");
}
