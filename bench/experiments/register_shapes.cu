// Experiment (not part of the build): times register_kernel shapes directly, with a no-op op
// (pure engine traffic) and softmax, against a device-to-device copy of the same bytes.
//   nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//     bench/experiments/register_shapes.cu -o /tmp/shapes && /tmp/shapes
#include <algorithm>
#include <cstdio>
#include <vector>

#include <rowfuse/rowfuse.cuh>

namespace rf = rowfuse;
using rf::index_t;

/// An op with no arithmetic: what the engine's loads, shuffles and stores cost alone.
struct passthrough {
  static constexpr char const* name = "passthrough";
  struct partial {
    float s;
  };
  struct stats {
    float s;
  };
  __device__ partial identity() const { return {0.f}; }
  template <int K> __device__ partial local(float const (&v)[K], int n) const {
    return {n > 0 ? v[0] : 0.f};
  }
  __device__ partial merge(partial a, partial b) const { return {a.s + b.s}; }
  __device__ stats finalize(partial p, index_t) const { return {p.s}; }
  template <int N> __device__ void finish(float (&x)[N], stats const&, index_t, index_t) const {}
  template <int N> bool aligned_for_pack() const { return true; }
  __device__ void save(index_t, stats const&) const {}
};

float* flush;
cudaEvent_t e0, e1;

template <class F> double time_ms(F f) {
  for (int i = 0; i < 3; ++i)
    f();
  std::vector<float> ms;
  for (int i = 0; i < 15; ++i) {
    cudaMemsetAsync(flush, i, 256u << 20);
    cudaEventRecord(e0);
    f();
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t;
    cudaEventElapsedTime(&t, e0, e1);
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

void *x, *y;
constexpr index_t elems = index_t(1) << 27;
double copy_ms[2]; // fp16, fp32

template <class T, int N, int P, int B, bool WB, bool Staged, class Op>
void run(char const* opname, Op op, index_t cols) {
  using C = rf::engine::register_config<N, P, B, WB, Staged>;
  index_t const rows = elems / cols;
  auto load = rf::bind(rf::load(static_cast<T const*>(x), rows, cols), "x");
  auto store = rf::bind(rf::store(static_cast<T*>(y)), "y", rows, cols);
  auto kernel = rf::engine::register_kernel<C, Op, decltype(load), decltype(store)>;
  int const smem = C::template staging_bytes<T>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, B, smem);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, kernel);
  int group = WB ? B : 1;
  index_t packs = cols / N;
  if (!WB) {
    while (group < 32 && index_t(group) * P < packs)
      group *= 2;
  }
  int glog = 0;
  while ((1 << glog) < group)
    ++glog;
  index_t tile = index_t(B / group);
  index_t tiles = (rows + tile - 1) / tile;
  index_t grid = std::min<index_t>(tiles, index_t(blocks) * 132);
  double ms =
      time_ms([&] { kernel<<<unsigned(grid), B, smem>>>(op, load, store, rows, cols, glog); });
  cudaError_t err = cudaGetLastError();
  std::printf("%-11s %s cols %6ld N%d P%d B%4d %s %s regs %3d occ %2d: %.4f ms  ratio %.3f %s\n",
              opname, sizeof(T) == 2 ? "fp16" : "fp32", long(cols), N, P, B, WB ? "block" : "warp ",
              Staged ? "staged" : "direct", attr.numRegs, blocks, ms, copy_ms[sizeof(T) == 4] / ms,
              err ? cudaGetErrorString(err) : "");
}

template <class T, int P, int B, bool WB> void both(index_t cols) {
  constexpr int N = 16 / sizeof(T);
  run<T, N, P, B, WB, false>("passthrough", passthrough{}, cols);
  run<T, N, P, B, WB, true>("passthrough", passthrough{}, cols);
  run<T, N, P, B, WB, false>("softmax", rf::op::softmax<false, false>{}, cols);
  run<T, N, P, B, WB, true>("softmax", rf::op::softmax<false, false>{}, cols);
}

int main() {
  cudaMalloc(&flush, 256u << 20);
  cudaMalloc(&x, elems * 4);
  cudaMalloc(&y, elems * 4);
  cudaMemset(x, 0x3c, elems * 4);
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int t = 0; t < 2; ++t) {
    std::size_t const bytes = elems * (t ? 4 : 2);
    copy_ms[t] = time_ms([&] { cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice); });
    std::printf("copy %s %.4f ms = %.0f GB/s\n", t ? "fp32" : "fp16", copy_ms[t],
                2.0 * bytes / copy_ms[t] / 1e6);
  }
  both<__half, 1, 128, false>(128);
  both<__half, 2, 128, false>(512);
  both<__half, 2, 64, true>(1024);
  both<__half, 2, 128, true>(2048);
  both<__half, 4, 128, true>(4096);
  both<__half, 4, 256, true>(8192);
  both<__half, 2, 512, true>(8192);
  both<__half, 4, 512, true>(16384);
  both<__half, 2, 1024, true>(16384);
  both<__half, 4, 1024, true>(32768);
  both<float, 2, 128, true>(1024);
  both<float, 4, 1024, true>(16384);
  both<float, 8, 1024, true>(32768);
  return 0;
}
