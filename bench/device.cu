#include "device.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

namespace bench {

void check(cudaError_t status, char const* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

char const* name(dtype t) {
  switch (t) {
  case dtype::fp32:
    return "fp32";
  case dtype::fp16:
    return "fp16";
  case dtype::bf16:
    return "bf16";
  case dtype::fp8_e4m3:
    return "fp8_e4m3";
  }
  return "?";
}

std::size_t size_of(dtype t) {
  switch (t) {
  case dtype::fp32:
    return 4;
  case dtype::fp16:
  case dtype::bf16:
    return 2;
  case dtype::fp8_e4m3:
    return 1;
  }
  return 0;
}

void* scratch::at_least(std::size_t n) {
  if (n > bytes) {
    // Only the untimed first run of a case grows the buffer; the timed runs find it big enough.
    if (data)
      check(cudaFree(data), "cudaFree(CUB scratch)");
    data = nullptr;
    check(cudaMalloc(&data, n), "cudaMalloc(CUB scratch)");
    bytes = n;
  }
  return data;
}

scratch::~scratch() {
  if (data)
    cudaFree(data);
}

bool has_gpu() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

namespace {

/// The kernel module's version from /proc (Linux), as nvidia-smi reports it; empty elsewhere.
/// The first line reads "NVRM version: NVIDIA UNIX ... Kernel Module  580.95.05  <date>".
std::string kernel_module_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line))
    return "";
  std::istringstream words(line);
  for (std::string w; words >> w;) {
    bool const numeric = !w.empty() && std::isdigit(static_cast<unsigned char>(w.front())) &&
                         w.find('.') != std::string::npos;
    if (numeric)
      return w;
  }
  return "";
}

} // namespace

device_info query_device() {
  device_info d;
  check(cudaGetDevice(&d.id), "cudaGetDevice");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, d.id), "cudaGetDeviceProperties");
  d.name = prop.name;
  check(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, d.id), "SM count");
  int khz = 0;
  check(cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, d.id), "memory clock");
  d.memory_clock_mhz = khz / 1000;
  int api = 0;
  check(cudaDriverGetVersion(&api), "cudaDriverGetVersion");
  std::string const cuda =
      "CUDA " + std::to_string(api / 1000) + "." + std::to_string(api % 1000 / 10);
  std::string const module = kernel_module_version();
  d.driver = module.empty() ? cuda : module + " (" + cuda + ")";
  return d;
}

namespace {

template <class T> __global__ void fill_kernel(T* out, long n, float lo, float hi, unsigned seed) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n;
       i += long(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i) * 2654435761u ^ unsigned(i >> 32) * 40503u ^ seed * 2246822519u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    h *= 3266489917u;
    h ^= h >> 16;
    out[i] = T(lo + (hi - lo) * float(h >> 8) * 0x1p-24f);
  }
}

template <class T> void fill_as(void* data, long n, float lo, float hi, unsigned seed) {
  fill_kernel<<<1024, 256>>>(static_cast<T*>(data), n, lo, hi, seed);
  check(cudaGetLastError(), "fill");
}

template <class T>
__device__ float distance(T const* fused, T const* unfused, T const* weight, long at, long cols,
                          tolerance tol) {
  float const f = float(fused[at]), u = float(unfused[at]);
  if (f == u)
    return 0.0f;
  if (!isfinite(f) || !isfinite(u))
    return INFINITY;
  double allowed = tol.atol + tol.atol_per_col / double(cols) + tol.rtol * fabs(double(u));
  if (weight)
    allowed += tol.per_weight * fabs(double(float(weight[at])));
  return float(fabs(double(f) - double(u)) / allowed);
}

constexpr int compare_blocks = 1024, compare_threads = 256;

/// Each block's worst element (err, index), the lowest index among equals; the host picks the
/// worst of the blocks. A plain kernel rather than thrust::transform_reduce, which cost this
/// file half a minute of nvcc per element type.
template <class T>
__global__ void compare_kernel(T const* fused, T const* unfused, T const* weight, long n, long cols,
                               long ld, tolerance tol, float* block_err, long* block_index) {
  __shared__ float errs[compare_threads];
  __shared__ long indices[compare_threads];
  float worst = -1.0f;
  long at = -1;
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n;
       i += long(gridDim.x) * blockDim.x) {
    long const offset = ld == cols ? i : i / cols * ld + i % cols;
    float const e = distance(fused, unfused, weight, offset, cols, tol);
    if (e > worst)
      worst = e, at = i;
  }
  errs[threadIdx.x] = worst;
  indices[threadIdx.x] = at;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      float const e = errs[threadIdx.x + half];
      long const k = indices[threadIdx.x + half];
      if (e > errs[threadIdx.x] || (e == errs[threadIdx.x] && k >= 0 && k < indices[threadIdx.x]))
        errs[threadIdx.x] = e, indices[threadIdx.x] = k;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    block_err[blockIdx.x] = errs[0], block_index[blockIdx.x] = indices[0];
}

template <class T>
mismatch compare_as(void const* fused, void const* unfused, void const* weight, long rows,
                    long cols, long ld, tolerance const& tol) {
  long const n = rows * cols;
  auto const f = static_cast<T const*>(fused);
  auto const u = static_cast<T const*>(unfused);
  float* err = nullptr;
  long* index = nullptr;
  check(cudaMalloc(&err, compare_blocks * sizeof(float)), "cudaMalloc(compare)");
  check(cudaMalloc(&index, compare_blocks * sizeof(long)), "cudaMalloc(compare)");
  auto const w = tol.per_weight != 0 ? static_cast<T const*>(weight) : nullptr;
  compare_kernel<<<compare_blocks, compare_threads>>>(f, u, w, n, cols, ld, tol, err, index);
  std::vector<float> errs(compare_blocks);
  std::vector<long> indices(compare_blocks);
  cudaError_t const status = cudaGetLastError();
  if (status == cudaSuccess) {
    check(cudaMemcpy(errs.data(), err, errs.size() * sizeof(float), cudaMemcpyDeviceToHost),
          "compare");
    check(cudaMemcpy(indices.data(), index, indices.size() * sizeof(long), cudaMemcpyDeviceToHost),
          "compare");
  }
  cudaFree(err);
  cudaFree(index);
  check(status, "compare");
  mismatch m;
  for (int b = 0; b < compare_blocks; ++b)
    if (indices[b] >= 0 && (m.index < 0 || errs[b] > m.worst))
      m.worst = errs[b], m.index = indices[b];
  if (m.index >= 0) {
    long const at = m.index / cols * ld + m.index % cols;
    T a, b;
    check(cudaMemcpy(&a, f + at, sizeof(T), cudaMemcpyDeviceToHost), "compare");
    check(cudaMemcpy(&b, u + at, sizeof(T), cudaMemcpyDeviceToHost), "compare");
    m.fused = float(a);
    m.unfused = float(b);
  }
  return m;
}

/// The lowest k (see first_write_outside) whose element has a byte other than 0xFF.
__global__ void outside_kernel(unsigned char const* base, int size, long lead, long rows, long cols,
                               long ld, unsigned long long* first) {
  long const pad = ld - cols;
  long const gaps = lead + rows * pad;
  for (long k = blockIdx.x * long(blockDim.x) + threadIdx.x; k < gaps;
       k += long(gridDim.x) * blockDim.x) {
    long const element = k < lead ? k : lead + (k - lead) / pad * ld + cols + (k - lead) % pad;
    bool touched = false;
    for (int b = 0; b < size; ++b)
      touched |= base[element * size + b] != 0xFF;
    if (touched)
      atomicMin(first, static_cast<unsigned long long>(k));
  }
}

} // namespace

long first_write_outside(dtype t, void const* base, long lead, long rows, long cols, long ld) {
  if (lead == 0 && ld == cols)
    return -1;
  unsigned long long* first = nullptr;
  check(cudaMalloc(&first, sizeof *first), "cudaMalloc(outside check)");
  unsigned long long found = ~0ull;
  cudaError_t status = cudaMemcpy(first, &found, sizeof found, cudaMemcpyHostToDevice);
  if (status == cudaSuccess) {
    outside_kernel<<<compare_blocks, compare_threads>>>(
        static_cast<unsigned char const*>(base), int(size_of(t)), lead, rows, cols, ld, first);
    status = cudaGetLastError();
  }
  if (status == cudaSuccess)
    status = cudaMemcpy(&found, first, sizeof found, cudaMemcpyDeviceToHost);
  cudaFree(first);
  check(status, "outside check");
  return found == ~0ull ? -1 : long(found);
}

void fill_uniform(dtype t, void* data, long n, float lo, float hi, unsigned seed) {
  switch (t) {
  case dtype::fp32:
    return fill_as<float>(data, n, lo, hi, seed);
  case dtype::fp16:
    return fill_as<__half>(data, n, lo, hi, seed);
  case dtype::bf16:
    return fill_as<__nv_bfloat16>(data, n, lo, hi, seed);
  case dtype::fp8_e4m3:
    break;
  }
  throw std::runtime_error("fill_uniform: inputs are fp32, fp16 or bf16");
}

mismatch compare(dtype t, void const* fused, void const* unfused, long rows, long cols, long ld,
                 tolerance const& tol, void const* weight) {
  switch (t) {
  case dtype::fp32:
    return compare_as<float>(fused, unfused, weight, rows, cols, ld, tol);
  case dtype::fp16:
    return compare_as<__half>(fused, unfused, weight, rows, cols, ld, tol);
  case dtype::bf16:
    return compare_as<__nv_bfloat16>(fused, unfused, weight, rows, cols, ld, tol);
  case dtype::fp8_e4m3:
    return compare_as<__nv_fp8_e4m3>(fused, unfused, weight, rows, cols, ld, tol);
  }
  return {};
}

} // namespace bench
