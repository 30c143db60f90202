// A/B of rf::layernorm and layernorm -> fp8 e4m3 (scale, amax) at whole-block and cluster widths
// (the library call, planned by dispatch): ratio to a device-to-device copy of the same counted
// bytes in the same process (median of 15 after 3 warm-ups, L2 flushed before each, as
// rowfuse-bench), and every output and saved rstd checked against a double-precision host
// reference on three kinds of rows: uniform in [-4, 4); 1000 + that (a large mean); and rows
// whose first element is an outlier (+900 above the rest), which the centred pass must see
// through; every 7th row constant.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <rowfuse/rowfuse.cuh>
#include "../../bench/experiments/median_time.cuh"
namespace rf = rowfuse;
using rf::index_t;
using fp8 = __nv_fp8_e4m3;

template <class T> float to_float(T v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else if constexpr (std::is_same_v<T, fp8>) return float(v);
  else if constexpr (std::is_same_v<T, __half>) return __half2float(v);
  else return __bfloat162float(v);
}
template <class T> T from_float(float v) {
  if constexpr (std::is_same_v<T, float>) return v;
  else if constexpr (std::is_same_v<T, __half>) return __float2half(v);
  else return __float2bfloat16(v);
}
static unsigned lcg = 2463534242u;
static float uniform(float lo, float hi) {
  lcg = lcg * 1664525u + 1013904223u;
  return lo + (hi - lo) * float(lcg >> 8) / float(1u << 24);
}

void* flush;
median_time timer;
constexpr float fp8_scale = 16.0f;

// Output ulp units: 16-bit 2^-10 / 2^-7 relative, fp32 1e-5 relative, fp8 2^-3.
template <class Out> double unit() {
  if constexpr (std::is_same_v<Out, float>) return 1e-5;
  else if constexpr (std::is_same_v<Out, fp8>) return 0x1p-3;
  else if constexpr (std::is_same_v<Out, __half>) return 0x1p-10;
  else return 0x1p-7;
}

template <class T, class Out>
double run(index_t rows, index_t cols, int kind, bool check, double& worst, double& worst_rstd,
           std::string& plan) {
  std::size_t const elems = std::size_t(rows) * cols;
  std::vector<T> hx(check ? elems : 0), hg(cols), hb(cols);
  for (auto& v : hg) v = from_float<T>(uniform(0.5f, 1.5f));
  for (auto& v : hb) v = from_float<T>(uniform(-0.5f, 0.5f));
  T *x, *gamma, *beta;
  Out* y;
  float *rstd, *amax;
  cudaMalloc(&x, elems * sizeof(T));
  // Room for the copy's bytes too (the copy of layernorm -> fp8's counted bytes moves more than
  // its output holds).
  cudaMalloc(&y, elems * std::max(sizeof(T), sizeof(Out)));
  cudaMalloc(&gamma, cols * sizeof(T));
  cudaMalloc(&beta, cols * sizeof(T));
  cudaMalloc(&rstd, rows * sizeof(float));
  cudaMalloc(&amax, sizeof(float));
  cudaMemset(amax, 0, sizeof(float));
  cudaMemcpy(gamma, hg.data(), cols * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(beta, hb.data(), cols * sizeof(T), cudaMemcpyHostToDevice);
  if (check) {
    for (index_t r = 0; r < rows; ++r) {
      float const base = kind == 1 ? 1000.0f : 0.0f;
      float const constant = uniform(-4.0f, 4.0f);
      for (index_t c = 0; c < cols; ++c) {
        float v = r % 7 == 3 ? constant : base + uniform(-4.0f, 4.0f);
        if (kind == 2 && c == 0 && r % 7 != 3) v += 900.0f;
        hx[r * cols + c] = from_float<T>(v);
      }
    }
    cudaMemcpy(x, hx.data(), elems * sizeof(T), cudaMemcpyHostToDevice);
  } else {
    cudaMemset(x, 0x3c, elems * sizeof(T)); // finite rows in every type
  }
  cudaMemset(y, 0xff, elems * sizeof(Out)); // NaN poison
  cudaMemset(rstd, 0xff, rows * sizeof(float));
  auto call = [&] {
    auto const affine = rf::affine(static_cast<T const*>(gamma), static_cast<T const*>(beta));
    if constexpr (std::is_same_v<Out, fp8>)
      return rf::layernorm(rf::load(static_cast<T const*>(x), rows, cols),
                           rf::store(y, cols) | rf::cast<fp8>(fp8_scale, amax), affine, 1e-5f,
                           nullptr, rf::row_stats{nullptr, rstd});
    else
      return rf::layernorm<rf::cols_range{2048, 262144}>(
          rf::load(static_cast<T const*>(x), rows, cols), rf::store(y, cols), affine, 1e-5f,
          nullptr, rf::row_stats{nullptr, rstd});
  };
  double ratio = 0;
  if (check) {
    plan = rf::explain(call());
    cudaDeviceSynchronize();
    std::vector<Out> hy(elems);
    std::vector<float> hr(rows);
    cudaMemcpy(hy.data(), y, elems * sizeof(Out), cudaMemcpyDeviceToHost);
    cudaMemcpy(hr.data(), rstd, rows * sizeof(float), cudaMemcpyDeviceToHost);
    double const scale = std::is_same_v<Out, fp8> ? fp8_scale : 1.0;
    for (index_t r = 0; r < rows; ++r) {
      T const* row = hx.data() + r * cols;
      double mean = 0, var = 0;
      for (index_t c = 0; c < cols; ++c) mean += to_float(row[c]);
      mean /= double(cols);
      for (index_t c = 0; c < cols; ++c)
        var += (to_float(row[c]) - mean) * (to_float(row[c]) - mean);
      double const want_rstd = 1.0 / std::sqrt(var / double(cols) + 1e-5);
      double const got_rstd = hr[r];
      worst_rstd = std::isnan(got_rstd) ? 1e30
                   : std::max(worst_rstd, std::fabs(got_rstd - want_rstd) / want_rstd / 1e-5);
      double maxabs = 0;
      for (index_t c = 0; c < cols; ++c)
        maxabs = std::max(maxabs, std::fabs((to_float(row[c]) - mean) * want_rstd));
      for (index_t c = 0; c < cols; ++c) {
        double const want =
            scale * ((to_float(row[c]) - mean) * want_rstd * to_float(hg[c]) + to_float(hb[c]));
        double const got = to_float(hy[r * cols + c]);
        double const err = std::fabs(got - want) /
                           (std::max(std::fabs(want), 0x1p-6) * unit<Out>() + 16 * 0x1p-24 * maxabs * scale);
        worst = std::isnan(got) ? 1e30 : std::max(worst, err);
      }
    }
  } else {
    std::size_t const bytes = elems * (sizeof(T) + sizeof(Out));
    double const copy = timer([&] { cudaMemcpyAsync(y, x, bytes / 2, cudaMemcpyDeviceToDevice); });
    double const fused = timer(call);
    ratio = copy / fused;
  }
  cudaFree(x); cudaFree(y); cudaFree(gamma); cudaFree(beta); cudaFree(rstd); cudaFree(amax);
  return ratio;
}

template <class T, class Out> void widths(char const* name, bool time_only) {
  for (index_t cols : {2048, 4096, 8192, 16384, 20480, 32768, 40960, 65536, 131072, 262144}) {
    double worst = 0, worst_rstd = 0;
    std::string plan;
    double ratio = 0;
    try {
      if (!time_only)
        for (int kind = 0; kind < 3; ++kind)
          run<T, Out>(std::max<index_t>(70, (index_t(1) << 22) / cols), cols, kind, true, worst,
                      worst_rstd, plan);
      ratio = run<T, Out>((index_t(1) << 27) / cols, cols, 0, false, worst, worst_rstd, plan);
    } catch (rf::error const& e) {
      std::printf("ERROR %s\n", e.what());
      cudaGetLastError();
    }
    std::printf("%-14s %-5s %7lld ratio %.3f worst %.2f rstd %.2f %s | %s\n",
                std::is_same_v<Out, fp8> ? "layernorm_fp8" : "layernorm", name, (long long)cols,
                ratio, worst, worst_rstd,
                time_only ? "" : worst <= 1.0 && worst_rstd <= 1.0 ? "ok" : "FAILED",
                plan.c_str());
    std::fflush(stdout);
  }
}

// The other ops on whole-block rows (the block fold): softmax and rmsnorm, T -> T, unchecked.
template <class T> double other(bool softmax, index_t cols) {
  index_t const rows = (index_t(1) << 27) / cols;
  std::size_t const elems = std::size_t(rows) * cols;
  T *x, *y, *gamma;
  cudaMalloc(&x, elems * sizeof(T));
  cudaMalloc(&y, elems * sizeof(T));
  cudaMalloc(&gamma, cols * sizeof(T));
  cudaMemset(x, 0x3c, elems * sizeof(T));
  cudaMemset(gamma, 0x3c, cols * sizeof(T));
  auto call = [&] {
    if (softmax)
      rf::softmax<rf::cols_range{2048, 32768}>(rf::load(static_cast<T const*>(x), rows, cols),
                                                rf::store(y, cols));
    else
      rf::rmsnorm<rf::cols_range{2048, 32768}>(rf::load(static_cast<T const*>(x), rows, cols),
                                                rf::store(y, cols),
                                                rf::affine(static_cast<T const*>(gamma)), 1e-6f);
  };
  double const copy = timer([&] { cudaMemcpyAsync(y, x, elems * sizeof(T), cudaMemcpyDeviceToDevice); });
  double const fused = timer(call);
  cudaFree(x); cudaFree(y); cudaFree(gamma);
  return copy / fused;
}
template <class T> void others(char const* name) {
  for (bool softmax : {true, false})
    for (index_t cols : {2048, 4096, 8192, 16384, 32768})
      std::printf("%-14s %-5s %7lld ratio %.3f\n", softmax ? "softmax" : "rmsnorm", name,
                  (long long)cols, other<T>(softmax, cols));
}

int main(int argc, char** argv) {
  bool const time_only = argc > 1 && std::string(argv[1]) == "time";
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
  widths<__half, __half>("fp16", time_only);
  widths<__nv_bfloat16, __nv_bfloat16>("bf16", time_only);
  widths<float, float>("fp32", time_only);
  widths<__half, fp8>("fp16", time_only);
  widths<__nv_bfloat16, fp8>("bf16", time_only);
  widths<float, fp8>("fp32", time_only);
  others<__half>("fp16");
  others<float>("fp32");
  return 0;
}
