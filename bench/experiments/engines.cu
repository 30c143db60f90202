// Experiment (not part of the build): every engine forced on the wide widths, ratio to a copy of
// the same bytes, for choosing the plan's thresholds.
//   nvcc -std=c++20 -arch=sm_90 -O3 --expt-relaxed-constexpr --extended-lambda -Iinclude \
//     bench/experiments/engines.cu src/*.cpp -o /tmp/engines && /tmp/engines
#include <algorithm>
#include <cstdio>
#include <vector>

#include <rowfuse/rowfuse.cuh>

#include "median_time.cuh"

namespace rf = rowfuse;
using rf::index_t;

float* flush;
cudaEvent_t e0, e1;
constexpr index_t elems = index_t(1) << 27;

template <class F> double time_ms(F f) {
  return median_time{3, 11, flush, 256u << 20, e0, e1}(f);
}

template <class T, class Run> void sweep(char const* name, void* x, void* y, Run run) {
  double const copy =
      time_ms([&] { cudaMemcpyAsync(y, x, elems * sizeof(T), cudaMemcpyDeviceToDevice); });
  for (index_t cols : {4096, 8192, 16384, 32768, 65536, 131072, 262144}) {
    for (auto kind :
         {rf::engine_kind::automatic, rf::engine_kind::block_rows, rf::engine_kind::block_smem,
          rf::engine_kind::block_cluster, rf::engine_kind::block_uncached}) {
      index_t const rows = elems / cols;
      auto load = rf::load(static_cast<T const*>(x), rows, cols);
      auto store = rf::store(static_cast<T*>(y));
      rf::plan const p = run(load, store, rf::launch_options{kind, 0, true});
      if (!p.refused.empty())
        continue; // that engine cannot run this width
      double const ms = time_ms([&] { run(load, store, rf::launch_options{kind, 0}); });
      cudaError_t const err = cudaDeviceSynchronize();
      std::printf("%-8s %6ld %-14s %.3f  %s %s\n", name, long(cols), rf::to_string(kind), copy / ms,
                  rf::explain(p).c_str(), err ? cudaGetErrorString(err) : "");
    }
  }
}

int main() {
  cudaMalloc(&flush, 256u << 20);
  void *x, *y;
  cudaMalloc(&x, elems * 4);
  cudaMalloc(&y, elems * 4);
  cudaMemset(x, 0x3c, elems * 4);
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  sweep<__half>("softmax16", x, y,
                [](auto l, auto s, rf::launch_options o) { return rf::softmax(l, s, nullptr, o); });
  sweep<float>("softmax32", x, y,
               [](auto l, auto s, rf::launch_options o) { return rf::softmax(l, s, nullptr, o); });
  sweep<__half>("rmsnorm16", x, y, [](auto l, auto s, rf::launch_options o) {
    return rf::rmsnorm(l, s, rf::no_affine, 1e-6f, nullptr, nullptr, o);
  });
  return 0;
}
