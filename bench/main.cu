// rowfuse-bench: times fused rowfuse kernels against a device-to-device copy of the same bytes,
// measured in the same run, and prints CSV (device, op, dtype, rows, cols, ms, GB/s, ratio).
//
// Method (../shared/GPU.md): 2^27 elements per case, far past the L2; warm-up; L2 flushed
// before every timed launch by writing a 256 MiB buffer; CUDA events around each launch;
// median of --reps launches.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "harness.hpp"

namespace {

void check(cudaError_t s, char const* what) {
  if (s != cudaSuccess) {
    std::fprintf(stderr, "rowfuse-bench: %s: %s\n", what, cudaGetErrorString(s));
    std::exit(1);
  }
}

struct options {
  long elements = 1L << 27;
  int reps = 15;
  std::vector<long> cols = {32,   64,   128,   256,   512,   1024,  2048,  4096,
                            8192, 16384, 32768, 65536, 131072, 262144};
  std::vector<std::string> ops;     // empty: all
  std::vector<std::string> dtypes;  // empty: all
};

std::vector<std::string> split(std::string const& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

void usage() {
  std::puts(
      "usage: rowfuse-bench [--ops softmax,log_softmax,layernorm,rmsnorm,attention]\n"
      "                     [--dtype fp32,fp16,bf16] [--cols 32,1024,...] [--elems N]\n"
      "                     [--reps N]\n"
      "Times each fused op and a device-to-device copy of the same bytes; prints CSV.");
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    std::string const a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "rowfuse-bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      usage();
      std::exit(0);
    } else if (a == "--ops") o.ops = split(value());
    else if (a == "--dtype") o.dtypes = split(value());
    else if (a == "--elems") o.elements = std::atol(value().c_str());
    else if (a == "--reps") o.reps = std::atoi(value().c_str());
    else if (a == "--cols") {
      o.cols.clear();
      for (auto const& c : split(value())) o.cols.push_back(std::atol(c.c_str()));
    } else {
      std::fprintf(stderr, "rowfuse-bench: unknown argument %s\n", a.c_str());
      usage();
      std::exit(2);
    }
  }
  return o;
}

bool wanted(std::vector<std::string> const& list, std::string const& name) {
  return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
}

/// Uniform values in [-4, 4) from a hash of the index: never zeros, never constant rows.
template <class T>
__global__ void fill_uniform(T* out, long n, unsigned seed) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    out[i] = T(float(h >> 8) * (8.0f / 16777216.0f) - 4.0f);
  }
}

void fill(void* buffer, std::string const& dtype, long n, unsigned seed) {
  if (dtype == "fp32") fill_uniform<<<1024, 256>>>(static_cast<float*>(buffer), n, seed);
  else if (dtype == "fp16") fill_uniform<<<1024, 256>>>(static_cast<__half*>(buffer), n, seed);
  else fill_uniform<<<1024, 256>>>(static_cast<__nv_bfloat16*>(buffer), n, seed);
  check(cudaGetLastError(), "fill");
}

struct timer {
  void* flush = nullptr;
  std::size_t flush_bytes = 256u << 20;
  cudaEvent_t start{}, stop{};
  timer() {
    check(cudaMalloc(&flush, flush_bytes), "cudaMalloc(flush)");
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
  }
  /// Median milliseconds of `reps` launches of f, each after an L2 flush.
  template <class F>
  double median_ms(int reps, F&& f) {
    for (int i = 0; i < 3; ++i) f();
    check(cudaDeviceSynchronize(), "warm-up");
    std::vector<double> ms;
    for (int i = 0; i < reps; ++i) {
      check(cudaMemsetAsync(flush, i & 0xFF, flush_bytes), "flush");
      check(cudaEventRecord(start), "record");
      f();
      check(cudaEventRecord(stop), "record");
      check(cudaEventSynchronize(stop), "sync");
      float t = 0;
      check(cudaEventElapsedTime(&t, start, stop), "elapsed");
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
};

}  // namespace

int main(int argc, char** argv) {
  options const o = parse(argc, argv);
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr,
                 "rowfuse-bench: no CUDA GPU found on this machine; the benchmark needs one "
                 "(the tests run without: cmake --workflow --preset ci)\n");
    return 2;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");

  std::vector<bench::variant> variants;
  for (auto* family : {bench::softmax_variants, bench::norm_variants, bench::pipeline_variants})
    for (auto& v : family())
      if (wanted(o.ops, v.op) && wanted(o.dtypes, v.dtype)) variants.push_back(v);

  std::size_t const bytes = std::size_t(o.elements) * 4;
  void *x, *y, *residual, *tee, *gamma, *beta;
  check(cudaMalloc(&x, bytes), "cudaMalloc");
  check(cudaMalloc(&y, bytes), "cudaMalloc");
  check(cudaMalloc(&residual, bytes), "cudaMalloc");
  check(cudaMalloc(&tee, bytes), "cudaMalloc");
  long const max_cols = *std::max_element(o.cols.begin(), o.cols.end());
  check(cudaMalloc(&gamma, std::size_t(max_cols) * 4), "cudaMalloc");
  check(cudaMalloc(&beta, std::size_t(max_cols) * 4), "cudaMalloc");
  fill(gamma, "fp32", max_cols, 3);
  fill(beta, "fp32", max_cols, 4);

  timer t;
  std::printf("device,op,dtype,rows,cols,ms,GBps,copy_GBps,ratio_to_copy\n");
  for (auto const& v : variants) {
    fill(x, v.dtype, o.elements, 1);
    fill(residual, v.dtype, o.elements, 2);
    for (long cols : o.cols) {
      long const rows = o.elements / cols;
      if (rows < 1) continue;
      bench::workload const w{x, y, residual, tee, gamma, beta, rows, cols};
      double const counted = double(rows) * cols * v.bytes_per_element;
      double const ms = t.median_ms(o.reps, [&] { v.fused(w, nullptr); });
      check(cudaGetLastError(), v.op.c_str());
      // The ceiling: a copy that reads and writes the same number of bytes in total.
      std::size_t const copy_bytes = std::size_t(counted / 2);
      double const copy_ms = t.median_ms(o.reps, [&] {
        check(cudaMemcpyAsync(y, x, copy_bytes, cudaMemcpyDeviceToDevice), "copy");
      });
      double const gbps = counted / ms / 1e6, copy_gbps = counted / copy_ms / 1e6;
      std::printf("%s,%s,%s,%ld,%ld,%.5f,%.1f,%.1f,%.3f\n", prop.name, v.op.c_str(),
                  v.dtype.c_str(), rows, cols, ms, gbps, copy_gbps, gbps / copy_gbps);
      std::fflush(stdout);
    }
  }
  return 0;
}
