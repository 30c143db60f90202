// The experiments' timing (as rowfuse-bench times, bench/NOTES.md): `warmups` untimed launches,
// then `runs` timed ones, each after a write of `flush_bytes` to `flush` so that the L2 holds none
// of the data, bracketed by two events; the median in milliseconds.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

struct median_time {
  int warmups, runs;
  void* flush;
  std::size_t flush_bytes;
  cudaEvent_t start, stop;

  template <class Launch> double operator()(Launch launch) const {
    for (int i = 0; i < warmups; ++i)
      launch();
    std::vector<float> ms;
    for (int i = 0; i < runs; ++i) {
      cudaMemsetAsync(flush, i, flush_bytes);
      cudaEventRecord(start);
      launch();
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float t = 0;
      cudaEventElapsedTime(&t, start, stop);
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
};
