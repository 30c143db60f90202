// A/B of rf::layernorm over 16-bit types at narrow widths (the library call, planned by
// dispatch): ratio to a device-to-device copy of the same counted bytes in the same process
// (median of 15 after 3 warm-ups, L2 flushed before each, as rowfuse-bench), and every output
// checked against a double-precision host reference on 100003 rows, aligned and one element off
// the 16-byte grid (ld = cols + 1).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <rowfuse/rowfuse.cuh>
#include "../../bench/experiments/median_time.cuh"
namespace rf = rowfuse;
using rf::index_t;

template <class T> float to_float(T v) {
  if constexpr (std::is_same_v<T, __half>) return __half2float(v);
  else return __bfloat162float(v);
}
template <class T> T from_float(float v) {
  if constexpr (std::is_same_v<T, __half>) return __float2half(v);
  else return __float2bfloat16(v);
}
static unsigned lcg = 2463534242u;
static float uniform(float lo, float hi) {
  lcg = lcg * 1664525u + 1013904223u;
  return lo + (hi - lo) * float(lcg >> 8) / float(1u << 24);
}

void* flush;
median_time timer;

template <class T>
double run(index_t rows, index_t cols, bool misaligned, bool check, double& worst) {
  index_t const ld = misaligned ? cols + 1 : cols;
  std::size_t const elems = std::size_t(rows) * ld + 1;
  std::vector<T> hx(check ? elems : 0), hg(cols), hb(cols);
  for (auto& v : hg) v = from_float<T>(uniform(0.5f, 1.5f));
  for (auto& v : hb) v = from_float<T>(uniform(-0.5f, 0.5f));
  T *x, *y, *gamma, *beta;
  cudaMalloc(&x, elems * sizeof(T));
  cudaMalloc(&y, elems * sizeof(T));
  cudaMalloc(&gamma, cols * sizeof(T));
  cudaMalloc(&beta, cols * sizeof(T));
  cudaMemcpy(gamma, hg.data(), cols * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(beta, hb.data(), cols * sizeof(T), cudaMemcpyHostToDevice);
  if (check) {
    for (auto& v : hx) v = from_float<T>(uniform(-4.0f, 4.0f));
    cudaMemcpy(x, hx.data(), elems * sizeof(T), cudaMemcpyHostToDevice);
  } else {
    cudaMemset(x, 0x3c, elems * sizeof(T)); // about 1.0 in both types: a finite row
  }
  cudaMemset(y, 0xff, elems * sizeof(T)); // NaN poison
  T const* xin = x + misaligned;
  T* yout = y + misaligned;
  auto call = [&] {
    rf::layernorm(rf::load(xin, rows, cols, ld), rf::store(yout, ld),
                  rf::affine(static_cast<T const*>(gamma), static_cast<T const*>(beta)), 1e-5f,
                  nullptr);
  };
  double ratio = 0;
  if (check) {
    call();
    cudaDeviceSynchronize();
    std::vector<T> hy(elems);
    cudaMemcpy(hy.data(), y, elems * sizeof(T), cudaMemcpyDeviceToHost);
    double const unit = std::is_same_v<T, __half> ? 0x1p-10 : 0x1p-7;
    for (index_t r = 0; r < rows; ++r) {
      T const* row = hx.data() + misaligned + r * ld;
      double mean = 0, var = 0;
      for (index_t c = 0; c < cols; ++c) mean += to_float(row[c]);
      mean /= double(cols);
      for (index_t c = 0; c < cols; ++c) var += (to_float(row[c]) - mean) * (to_float(row[c]) - mean);
      double const rstd = 1.0 / std::sqrt(var / double(cols) + 1e-5);
      for (index_t c = 0; c < cols; ++c) {
        double const want = (to_float(row[c]) - mean) * rstd * to_float(hg[c]) + to_float(hb[c]);
        double const got = to_float(hy[misaligned + r * ld + c]);
        double const err = std::fabs(got - want) / (std::max(std::fabs(want), 0x1p-6) * unit);
        worst = std::isnan(got) ? 1e30 : std::max(worst, err);
      }
    }
  } else {
    std::size_t const bytes = 2 * std::size_t(rows) * cols * sizeof(T);
    double const copy = timer([&] {
      cudaMemcpyAsync(y, x, bytes / 2, cudaMemcpyDeviceToDevice);
    });
    double const fused = timer(call);
    ratio = copy / fused;
  }
  cudaFree(x);
  cudaFree(y);
  cudaFree(gamma);
  cudaFree(beta);
  return ratio;
}

template <class T> void widths(char const* name) {
  for (index_t cols : {16, 32, 33, 48, 50, 63, 64, 128}) {
    for (bool misaligned : {false, true}) {
      if (misaligned && cols % 8 == 0 && cols > 48) continue;
      double worst = 0;
      run<T>(100003, cols, misaligned, true, worst);
      double const ratio = run<T>((index_t(1) << 27) / cols, cols, misaligned, false, worst);
      std::printf("layernorm %s %6lld %s ratio %.3f worst %.2f units %s\n", name, (long long)cols,
                  misaligned ? "misaligned" : "aligned   ", ratio, worst,
                  worst <= 2.0 ? "ok" : "FAILED");
    }
  }
}

int main() {
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  cudaMalloc(&flush, 256u << 20);
  timer.warmups = 3;
  timer.runs = 15;
  timer.flush = flush;
  timer.flush_bytes = 256u << 20;
  cudaEventCreate(&timer.start);
  cudaEventCreate(&timer.stop);
  widths<__half>("fp16");
  widths<__nv_bfloat16>("bf16");
  return 0;
}
