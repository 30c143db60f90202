// What every example shares, so that each shows only rowfuse: skipping without a GPU (exit 77,
// which ctest reports as skipped), device copies of host vectors, random inputs, the check
// against the host reference, and a timer. Plain CUDA runtime calls: no Thrust, to keep the
// examples quick to compile.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <cuda_runtime.h>

namespace example {

inline void ok(cudaError_t status) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(status));
    std::exit(1);
  }
}

inline bool no_gpu() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0)
    return false;
  std::puts("skipped: no CUDA device");
  return true;
}

/// A device array; made from a host vector it starts as a copy of it.
template <class T> class device {
public:
  explicit device(std::size_t n) : n_(n) { ok(cudaMalloc(&data_, n * sizeof(T))); }
  explicit device(std::vector<T> const& h) : device(h.size()) {
    ok(cudaMemcpy(data_, h.data(), n_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~device() { cudaFree(data_); }
  device(device const&) = delete;
  device& operator=(device const&) = delete;

  T* data() const { return data_; }
  /// The first `count` elements (all by default), after the work queued so far.
  std::vector<T> host(std::size_t count = std::size_t(-1)) const {
    std::vector<T> h(std::min(count, n_));
    ok(cudaMemcpy(h.data(), data_, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }

private:
  T* data_ = nullptr;
  std::size_t n_;
};

template <class T> std::vector<T> random(std::size_t n, float lo, float hi, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v)
    x = T(uniform(rng));
  return v;
}

/// Largest |got - exact| / (|exact| + floor) over the values the host reference returned;
/// prints it and returns 0 when it is within `bound`, 1 otherwise.
template <class T>
int check(char const* what, std::vector<T> const& got, std::vector<double> const& exact,
          double bound, double floor = 0) {
  double worst = 0;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    double const g = static_cast<float>(got[i]), e = exact[i];
    double const err = g == e ? 0 : std::fabs(g - e) / (std::fabs(e) + floor);
    worst = std::max(worst, std::isnan(err) ? INFINITY : err);
  }
  bool const pass = worst <= bound;
  std::printf("%s: max relative error against the host reference %.2e (bound %.2e): %s\n", what,
              worst, bound, pass ? "ok" : "FAILED");
  return pass ? 0 : 1;
}

/// Median milliseconds of `reps` calls of f, each after a 256 MiB write that empties the L2.
template <class F> double time_ms(F&& f, int reps = 11) {
  static void* flush = nullptr;
  std::size_t const flush_bytes = std::size_t(256) << 20;
  if (!flush)
    ok(cudaMalloc(&flush, flush_bytes));
  cudaEvent_t start, stop;
  ok(cudaEventCreate(&start));
  ok(cudaEventCreate(&stop));
  std::vector<float> ms(std::size_t(reps), 0.0f);
  f(); // warm-up: first-launch costs are not the kernel's
  for (auto& t : ms) {
    ok(cudaMemsetAsync(flush, 0, flush_bytes));
    ok(cudaEventRecord(start));
    f();
    ok(cudaEventRecord(stop));
    ok(cudaEventSynchronize(stop));
    ok(cudaEventElapsedTime(&t, start, stop));
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

} // namespace example
