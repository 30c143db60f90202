// A/B of the library's single-element rows (odd widths, pointers off the 16-byte grid): rf::softmax,
// rf::layernorm (gamma, beta) and rf::rmsnorm (gamma) over fp16 and fp32 at 5-255 columns, every
// pointer one element off and ld = cols + 1 (rowfuse-bench --misalign's layout); ratio to a
// device-to-device copy of the counted bytes in the same process (median of 15 after 3 warm-ups, L2
// flushed before each), every output checked on 100003 rows against a double-precision host
// reference first. Prints the plan of each width.
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <rowfuse/rowfuse.cuh>
#include "../../bench/experiments/median_time.cuh"
namespace rf = rowfuse;
using rf::index_t;

template <class T> double to_double(T v) {
  if constexpr (std::is_same_v<T, __half>) return double(__half2float(v));
  else return double(v);
}
template <class T> T from_float(float v) {
  if constexpr (std::is_same_v<T, __half>) return __float2half(v);
  else return v;
}
static unsigned lcg = 2463534242u;
static float uniform(float lo, float hi) {
  lcg = lcg * 1664525u + 1013904223u;
  return lo + (hi - lo) * float(lcg >> 8) / float(1u << 24);
}

void* flush;
median_time timer;
constexpr rf::cols_range narrow{1, 256};

enum class which { softmax, layernorm, rmsnorm, log_softmax };
char const* name_of(which op) {
  return op == which::softmax       ? "softmax"
         : op == which::layernorm   ? "layernorm"
         : op == which::log_softmax ? "log_softmax"
                                    : "rmsnorm";
}

template <class T>
double run(which op, index_t rows, index_t cols, bool check, double& worst, std::string& plan) {
  index_t const ld = cols + 1;
  std::size_t const elems = std::size_t(rows) * ld + 1;
  std::vector<T> hx(check ? elems : 0), hg(cols), hb(cols);
  for (auto& v : hg) v = from_float<T>(uniform(0.5f, 1.5f));
  for (auto& v : hb) v = from_float<T>(uniform(-0.5f, 0.5f));
  T *x, *y, *gamma, *beta;
  cudaMalloc(&x, elems * sizeof(T));
  cudaMalloc(&y, elems * sizeof(T));
  cudaMalloc(&gamma, (cols + 1) * sizeof(T));
  cudaMalloc(&beta, (cols + 1) * sizeof(T));
  cudaMemcpy(gamma + 1, hg.data(), cols * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(beta + 1, hb.data(), cols * sizeof(T), cudaMemcpyHostToDevice);
  if (check) {
    for (auto& v : hx) v = from_float<T>(uniform(-4.0f, 4.0f));
    cudaMemcpy(x, hx.data(), elems * sizeof(T), cudaMemcpyHostToDevice);
  } else {
    cudaMemset(x, 0x3c, elems * sizeof(T)); // finite rows in both types
  }
  cudaMemset(y, 0xff, elems * sizeof(T)); // NaN poison
  T const* xin = x + 1;
  T* yout = y + 1;
  T const* g = gamma + 1;
  T const* b = beta + 1;
  auto call = [&] {
    if (op == which::softmax)
      return rf::softmax<narrow>(rf::load(xin, rows, cols, ld), rf::store(yout, ld));
    if (op == which::log_softmax)
      return rf::log_softmax<narrow>(rf::load(xin, rows, cols, ld), rf::store(yout, ld));
    if (op == which::layernorm)
      return rf::layernorm<narrow>(rf::load(xin, rows, cols, ld), rf::store(yout, ld),
                                   rf::affine(g, b), 1e-5f);
    return rf::rmsnorm<narrow>(rf::load(xin, rows, cols, ld), rf::store(yout, ld), rf::affine(g),
                               1e-5f);
  };
  double ratio = 0;
  if (check) {
    plan = rf::explain(call());
    cudaDeviceSynchronize();
    std::vector<T> hy(elems);
    cudaMemcpy(hy.data(), y, elems * sizeof(T), cudaMemcpyDeviceToHost);
    double const unit = std::is_same_v<T, __half> ? 0x1p-10 : 0x1p-20;
    std::vector<double> want(cols);
    for (index_t r = 0; r < rows; ++r) {
      T const* row = hx.data() + 1 + r * ld;
      if (op == which::softmax || op == which::log_softmax) {
        double m = -1e300, s = 0;
        for (index_t c = 0; c < cols; ++c) m = std::max(m, to_double(row[c]));
        for (index_t c = 0; c < cols; ++c) s += std::exp(to_double(row[c]) - m);
        for (index_t c = 0; c < cols; ++c)
          want[c] = op == which::softmax ? std::exp(to_double(row[c]) - m) / s
                                         : to_double(row[c]) - m - std::log(s);
      } else if (op == which::layernorm) {
        double mean = 0, var = 0;
        for (index_t c = 0; c < cols; ++c) mean += to_double(row[c]);
        mean /= double(cols);
        for (index_t c = 0; c < cols; ++c)
          var += (to_double(row[c]) - mean) * (to_double(row[c]) - mean);
        double const rstd = 1.0 / std::sqrt(var / double(cols) + 1e-5);
        for (index_t c = 0; c < cols; ++c)
          want[c] = (to_double(row[c]) - mean) * rstd * to_double(hg[c]) + to_double(hb[c]);
      } else {
        double ms = 0;
        for (index_t c = 0; c < cols; ++c) ms += to_double(row[c]) * to_double(row[c]);
        double const rstd = 1.0 / std::sqrt(ms / double(cols) + 1e-5);
        for (index_t c = 0; c < cols; ++c) want[c] = to_double(row[c]) * rstd * to_double(hg[c]);
      }
      for (index_t c = 0; c < cols; ++c) {
        double const got = to_double(hy[1 + r * ld + c]);
        double const err = std::fabs(got - want[c]) / (std::max(std::fabs(want[c]), 0x1p-6) * unit);
        worst = std::isnan(got) ? 1e30 : std::max(worst, err);
      }
      // The gap column past each row is never written.
      if (r + 1 < rows && !std::isnan(to_double(hy[1 + r * ld + cols]))) worst = 1e30;
    }
  } else {
    std::size_t const bytes = 2 * std::size_t(rows) * cols * sizeof(T);
    double const copy = timer([&] { cudaMemcpyAsync(y, x, bytes / 2, cudaMemcpyDeviceToDevice); });
    double const fused = timer(call);
    ratio = copy / fused;
  }
  cudaFree(x);
  cudaFree(y);
  cudaFree(gamma);
  cudaFree(beta);
  return ratio;
}

template <class T> void widths(char const* type, which op) {
  for (index_t cols : {5, 16, 17, 24, 31, 32, 33, 48, 50, 63, 64, 100, 127, 128, 200, 255}) {
    double worst = 0;
    std::string plan;
    run<T>(op, 100003, cols, true, worst, plan);
    std::string unused;
    double const ratio = run<T>(op, (index_t(1) << 27) / (cols + 1), cols, false, worst, unused);
    std::printf("%-9s %s %4lld ratio %.3f worst %.2f %s | %s\n", name_of(op), type,
                (long long)cols, ratio, worst, worst <= 2.0 ? "ok" : "FAILED", plan.c_str());
  }
}

int main(int argc, char** argv) {
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
  if (argc == 4) { // one case, timed once (for a profiler): op type cols
    std::string const op = argv[1], type = argv[2];
    which const w = op == "softmax" ? which::softmax
                    : op == "layernorm" ? which::layernorm
                                        : which::rmsnorm;
    index_t const cols = std::atoll(argv[3]);
    double worst = 0;
    std::string plan;
    timer.warmups = 1;
    timer.runs = 1;
    if (type == "fp16")
      run<__half>(w, (index_t(1) << 27) / (cols + 1), cols, false, worst, plan);
    else
      run<float>(w, (index_t(1) << 27) / (cols + 1), cols, false, worst, plan);
    return 0;
  }
#ifdef ABN_LOG_SOFTMAX // log-softmax alone
  for (which op : {which::log_softmax}) {
#else
  for (which op : {which::softmax, which::layernorm, which::rmsnorm}) {
#endif
    widths<__half>("fp16", op);
    widths<float>("fp32", op);
  }
  return 0;
}
