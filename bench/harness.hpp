// What a benchmark variant is: a named fused launch over preallocated buffers, and the bytes it
// must move (each full-size input read once, each output written once).
#pragma once

#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace bench {

/// Device buffers shared by every variant, each large enough for 2^27 fp32 elements.
struct workload {
  void const* x = nullptr;         // the input
  void* y = nullptr;               // the output
  void const* residual = nullptr;  // a second full-size input
  void* tee = nullptr;             // a second full-size output
  void const* gamma = nullptr;     // per-column vectors (fp32)
  void const* beta = nullptr;
  long rows = 0;
  long cols = 0;
};

using launcher = void (*)(workload const&, cudaStream_t);

struct variant {
  std::string op;     // softmax, log_softmax, layernorm, rmsnorm, attention, ...
  std::string dtype;  // fp32, fp16, bf16 (the input's; outputs match unless the op says)
  double bytes_per_element;  // counted bytes per element of the [rows, cols] tensor
  launcher fused;
};

std::vector<variant> softmax_variants();
std::vector<variant> norm_variants();
std::vector<variant> pipeline_variants();

}  // namespace bench
