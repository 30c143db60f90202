// Experiment (not part of the build): the four ops over 16-bit rows whose input and output start
// at different distances from the 16-byte grid, so that no packs can be phased and the library
// runs single elements (the tables' pack-1 rows). rowfuse-bench --misalign moves every pointer
// one element, and its rows take phased packs; here only the input is one element off. Each
// width's result is checked against the same op on an aligned copy of the input (packs of 8,
// another engine path), and timed against a copy of the same bytes with the same offsets.
//   nvcc -std=c++20 -arch=sm_90 -O3 -DNDEBUG --expt-relaxed-constexpr --extended-lambda -Iinclude \
//     bench/experiments/single_elements.cu -o /tmp/single_elements
//   /tmp/single_elements 2049 3000 ...   (prints: op cols plan ratio-to-copy max-difference)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_fp16.h>

#include <rowfuse/rowfuse.cuh>

#include "median_time.cuh"

namespace rf = rowfuse;

namespace {

void check(cudaError_t status, char const* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

/// op `name` over [rows x cols] from x to y (ld = cols), with gamma and beta of `cols` columns.
rf::plan run(std::string const& name, __half const* x, __half* y, __half const* gamma,
             __half const* beta, long rows, long cols, rf::launch_options const& options = {}) {
  auto const load = rf::load(x, rows, cols);
  auto const store = rf::store(y);
  if (name == "softmax")
    return rf::softmax(load, store, nullptr, options);
  if (name == "log_softmax")
    return rf::log_softmax(load, store, nullptr, options);
  if (name == "rmsnorm")
    return rf::rmsnorm(load, store, rf::affine(gamma), 1e-6f, nullptr, nullptr, options);
  return rf::layernorm(load, store, rf::affine(gamma, beta), 1e-5f, nullptr, {}, options);
}

} // namespace

int main(int argc, char** argv) {
  std::vector<long> widths;
  for (int i = 1; i < argc; ++i)
    widths.push_back(std::atol(argv[i]));
  long const elements = 1L << 27;
  // One element of lead before each tensor, 16 bytes of slack after.
  __half *x_base, *y_base, *aligned_x, *aligned_y, *gamma, *beta;
  check(cudaMalloc(&x_base, (elements + 8) * sizeof(__half)), "cudaMalloc");
  check(cudaMalloc(&y_base, (elements + 8) * sizeof(__half)), "cudaMalloc");
  check(cudaMalloc(&aligned_x, elements * sizeof(__half)), "cudaMalloc");
  check(cudaMalloc(&aligned_y, elements * sizeof(__half)), "cudaMalloc");
  check(cudaMalloc(&gamma, 262144 * sizeof(__half)), "cudaMalloc");
  check(cudaMalloc(&beta, 262144 * sizeof(__half)), "cudaMalloc");
  {
    // Random inputs in [-4, 4), gamma in [0.5, 1.5), beta in [-0.5, 0.5).
    std::vector<__half> host(elements);
    unsigned state = 12345;
    auto uniform = [&] {
      state = state * 1664525u + 1013904223u;
      return float(state >> 8) / float(1u << 24);
    };
    for (auto& v : host)
      v = __float2half(8.0f * uniform() - 4.0f);
    check(cudaMemcpy(x_base + 1, host.data(), elements * sizeof(__half), cudaMemcpyHostToDevice),
          "copy x");
    check(cudaMemcpy(aligned_x, host.data(), elements * sizeof(__half), cudaMemcpyHostToDevice),
          "copy x");
    for (long i = 0; i < 262144; ++i)
      host[i] = __float2half(0.5f + uniform());
    check(cudaMemcpy(gamma, host.data(), 262144 * sizeof(__half), cudaMemcpyHostToDevice), "gamma");
    for (long i = 0; i < 262144; ++i)
      host[i] = __float2half(uniform() - 0.5f);
    check(cudaMemcpy(beta, host.data(), 262144 * sizeof(__half), cudaMemcpyHostToDevice), "beta");
  }
  void* flush;
  std::size_t const flush_bytes = 256u << 20;
  check(cudaMalloc(&flush, flush_bytes), "cudaMalloc");
  median_time timer{3, 15, flush, flush_bytes, {}, {}};
  cudaEventCreate(&timer.start);
  cudaEventCreate(&timer.stop);

  __half const* x = x_base + 1; // one element off the grid
  __half* y = y_base;           // on it
  for (std::string const op : {"softmax", "log_softmax", "rmsnorm", "layernorm"}) {
    for (long cols : widths) {
      long const rows = elements / cols;
      rf::plan const p = run(op, x, y, gamma, beta, rows, cols, {.dry_run = true});
      double const copy_ms = timer([&] {
        cudaMemcpyAsync(y, x, std::size_t(rows * cols) * sizeof(__half), cudaMemcpyDeviceToDevice);
      });
      check(cudaMemset(y, 0xff, std::size_t(rows * cols) * sizeof(__half)), "poison");
      double const op_ms = timer([&] { run(op, x, y, gamma, beta, rows, cols); });
      run(op, aligned_x, aligned_y, gamma, beta, rows, cols);
      check(cudaDeviceSynchronize(), op.c_str());
      // The first and last 64 rows of both results.
      long const sampled = std::min(rows, 64L) * cols;
      std::vector<__half> single(2 * sampled), packed(2 * sampled);
      for (int end = 0; end < 2; ++end) {
        long const offset = end == 0 ? 0 : (rows * cols - sampled);
        cudaMemcpy(single.data() + end * sampled, y + offset, sampled * sizeof(__half),
                   cudaMemcpyDeviceToHost);
        cudaMemcpy(packed.data() + end * sampled, aligned_y + offset, sampled * sizeof(__half),
                   cudaMemcpyDeviceToHost);
      }
      double worst = 0;
      for (std::size_t i = 0; i < single.size(); ++i) {
        double const a = __half2float(single[i]), b = __half2float(packed[i]);
        worst = std::isfinite(a) ? std::max(worst, std::abs(a - b) / std::max(1.0, std::abs(b)))
                                 : INFINITY;
      }
      std::printf("%s %ld pack=%d block=%d shape=%d %.3f %.2e\n", op.c_str(), cols, p.pack,
                  p.block_threads, p.shape, copy_ms / op_ms, worst);
    }
  }
  return 0;
}
