// The device side of the harness that is not a variant: what the GPU is, inputs, the
// fused-against-unfused comparison, and the timer.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "harness.hpp"

namespace bench {

/// Throws std::runtime_error naming `what` unless `status` is cudaSuccess.
void check(cudaError_t status, char const* what);

struct device_info {
  int id = 0;
  std::string name;
  int sms = 0;
  int memory_clock_mhz = 0;
  std::string driver; // "580.95.05 (CUDA 13.0)": the kernel module and the CUDA API it serves
};

/// Whether a CUDA device can be used; false without a driver or a GPU.
bool has_gpu();
device_info query_device();

/// n values uniform in [lo, hi), rounded to t, from a hash of (index, seed): no zeros, no
/// constant rows, the same on every run.
void fill_uniform(dtype t, void* data, long n, float lo, float hi, unsigned seed);

/// The element where fused and unfused are furthest apart, in units of the tolerance: worst <= 1
/// means they agree. NaN or infinity on one side only counts as infinitely far. Both are
/// [rows, cols] with rows ld elements apart; `index` is the compact row * cols + col. `weight`,
/// where tol.per_weight is not 0, is a third such tensor of t that scales part of the tolerance.
struct mismatch {
  double worst = 0;
  long index = -1;
  double fused = 0, unfused = 0;
};
mismatch compare(dtype t, void const* fused, void const* unfused, long rows, long cols, long ld,
                 tolerance const& tol, void const* weight = nullptr);

/// Where a [rows, cols] tensor of t with rows ld apart, starting `lead` elements past `base`,
/// has a byte other than 0xFF outside itself: in the `lead` elements before it or in the ld - cols
/// elements after each row (the padding of --misalign, poisoned before the run). -1: nowhere;
/// k < lead: element k before the tensor; otherwise element cols + j after row r, where
/// k - lead = r * (ld - cols) + j.
long first_write_outside(dtype t, void const* base, long lead, long rows, long cols, long ld);

/// Median milliseconds of launches of `run`, each after writing `flush_bytes` so that no input
/// is left in the L2 (the H200 has 60 MB of it), timed with CUDA events.
class timer {
public:
  static constexpr std::size_t flush_bytes = std::size_t(256) << 20;

  timer() {
    check(cudaMalloc(&flush_, flush_bytes), "cudaMalloc(L2 flush buffer)");
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~timer() {
    cudaFree(flush_);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  timer(timer const&) = delete;
  timer& operator=(timer const&) = delete;

  /// One flushed, timed launch.
  template <class Run> double once(Run&& run) {
    check(cudaMemsetAsync(flush_, ++generation_ & 0xFF, flush_bytes), "L2 flush");
    check(cudaEventRecord(start_), "cudaEventRecord");
    run();
    check(cudaEventRecord(stop_), "cudaEventRecord");
    check(cudaEventSynchronize(stop_), "timed launch");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
    return ms;
  }

  /// Two warm-up launches, then `reps` timed ones, fewer (not under min_reps) where that many
  /// would take longer than budget_ms: the slowest unfused pipelines at narrow rows take tens
  /// of milliseconds a launch. Returns the median and sets `used` to the launches timed.
  template <class Run> double median_ms(Run&& run, int reps, double budget_ms, int& used) {
    once(run);
    double const first = once(run);
    constexpr int min_reps = 5;
    int n = reps;
    if (first > 0 && first * reps > budget_ms)
      n = std::max(std::min(reps, min_reps), int(budget_ms / first));
    std::vector<double> ms;
    ms.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i)
      ms.push_back(once(run));
    std::sort(ms.begin(), ms.end());
    used = n;
    return n % 2 ? ms[std::size_t(n / 2)]
                 : 0.5 * (ms[std::size_t(n / 2 - 1)] + ms[std::size_t(n / 2)]);
  }

private:
  void* flush_ = nullptr;
  cudaEvent_t start_{}, stop_{};
  unsigned generation_ = 0;
};

} // namespace bench
