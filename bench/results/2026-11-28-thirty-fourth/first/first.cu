// Load cost of a fatbin's compression mode: the time to a first fused call (module load,
// decompression of the fatbin included) and to a second, and the result checked on the host.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <rowfuse/rowfuse.cuh>
namespace rf = rowfuse;
using clock_type = std::chrono::steady_clock;
static double ms(clock_type::time_point a, clock_type::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
int main() {
  auto const t0 = clock_type::now();
  cudaFree(nullptr);
  auto const t1 = clock_type::now();
  rf::index_t const rows = 4096, cols = 1000;
  std::vector<__half> host(rows * cols);
  unsigned state = 12345u;
  for (auto& v : host) {
    state = state * 1664525u + 1013904223u;
    v = __float2half(float(state >> 8) / float(1u << 24) * 8.0f - 4.0f);
  }
  __half *x = nullptr, *y = nullptr;
  cudaMalloc(&x, host.size() * 2);
  cudaMalloc(&y, host.size() * 2);
  cudaMemcpy(x, host.data(), host.size() * 2, cudaMemcpyHostToDevice);
  cudaMemset(y, 0xff, host.size() * 2);
  cudaDeviceSynchronize();
  auto const t2 = clock_type::now();
  rf::softmax(rf::load(static_cast<__half const*>(x), rows, cols), rf::store(y), nullptr);
  cudaDeviceSynchronize();
  auto const t3 = clock_type::now();
  rf::softmax(rf::load(static_cast<__half const*>(x), rows, cols), rf::store(y), nullptr);
  cudaDeviceSynchronize();
  auto const t4 = clock_type::now();
  std::vector<__half> out(host.size());
  cudaMemcpy(out.data(), y, out.size() * 2, cudaMemcpyDeviceToHost);
  double worst = 0;
  for (rf::index_t r = 0; r < rows; ++r) {
    double peak = -1e30, sum = 0;
    for (rf::index_t c = 0; c < cols; ++c) peak = std::fmax(peak, __half2float(host[r * cols + c]));
    for (rf::index_t c = 0; c < cols; ++c) sum += std::exp(__half2float(host[r * cols + c]) - peak);
    for (rf::index_t c = 0; c < cols; ++c) {
      double const want = std::exp(__half2float(host[r * cols + c]) - peak) / sum;
      double const got = __half2float(out[r * cols + c]);
      double const err = std::fabs(got - want) / (want * 0x1p-10 + 1e-7);
      worst = std::isnan(got) ? 1e30 : std::fmax(worst, err);
    }
  }
  std::printf("context %.1f ms, first call %.2f ms, second call %.3f ms, worst error %.2f "
              "half-ulps of the reference (%s)\n",
              ms(t0, t1), ms(t2, t3), ms(t3, t4), worst, worst <= 2.0 ? "ok" : "FAILED");
  return worst <= 2.0 ? 0 : 1;
}
