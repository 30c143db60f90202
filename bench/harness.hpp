// What rowfuse-bench measures: a variant is one op or pipeline for one input type, with a fused
// launcher (one rowfuse call) and an unfused one (what a user writes from Thrust and CUB), the
// bytes it must move and how closely the two must agree. Variants register themselves from the
// translation units CMake generates per family and type, so main knows none of them by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace bench {

enum class dtype { fp32, fp16, bf16, fp8_e4m3 };

char const* name(dtype t);
std::size_t size_of(dtype t);

/// Device memory one implementation of one case works on. Inputs are shared by fused and
/// unfused; each gets its own outputs (y, h, amax) so that the two can be compared.
///
/// x, residual, y and h are [rows, cols] with row r at element r * ld: ld = cols, or with
/// --misalign ld = cols + 1 and every pointer below but amax, t1, t2 and row_a/b one element of
/// its own type past a 16-byte boundary. The unfused temporaries stay compact (ld = cols) and
/// aligned, as a framework allocates a fresh tensor for the result of each step.
struct buffers {
  long rows = 0, cols = 0;
  long ld = 0;                    // elements from one row to the next of x, residual, y and h
  void const* x = nullptr;        // [rows, cols] input
  void const* residual = nullptr; // [rows, cols] second input (residual pipelines)
  void const* bias = nullptr;     // [cols], per-column vectors in the input type
  void const* gamma = nullptr;
  void const* beta = nullptr;
  void* y = nullptr;     // [rows, cols] output
  void* h = nullptr;     // [rows, cols] tee output (the pre-norm sum)
  float* amax = nullptr; // one float, max |y| before the fp8 scale
  void* t1 = nullptr;    // [rows, cols] temporaries of the unfused pipelines, compact
  void* t2 = nullptr;
  float* row_a = nullptr; // [rows] per-row statistics of the unfused pipelines
  float* row_b = nullptr;
  struct scratch* cub = nullptr; // CUB's temporary storage, grown on first use
};

/// CUB temporary storage: sized on the untimed first run, reused by the timed ones.
struct scratch {
  void* data = nullptr;
  std::size_t bytes = 0;
  void* at_least(std::size_t n);
  ~scratch();
};

using launcher = void (*)(buffers const&, cudaStream_t);

/// |fused - unfused| <= atol + atol_per_col / cols + rtol * |unfused| for every element.
struct tolerance {
  double rtol = 0, atol = 0, atol_per_col = 0;
};

// Parameters every implementation uses, so that fused and unfused compute the same thing.
inline constexpr float attention_scale = 0.125f;
inline constexpr float dropout_p = 0.1f;
inline constexpr std::uint64_t dropout_seed = 2024, dropout_offset = 0;
inline constexpr float layernorm_eps = 1e-5f, rmsnorm_eps = 1e-6f;
/// fp8 e4m3 reaches 448; layernorm outputs of the benchmark's data stay under about 4.
inline constexpr float fp8_scale = 64.0f;

struct variant {
  std::string op; // softmax, log_softmax, layernorm, rmsnorm, attention, residual, ...
  dtype in;       // the input's type; per-column vectors have it too
  dtype out;      // the output's type
  /// Counted bytes per element of the [rows, cols] tensor: each full-size input read once,
  /// each output written once (../shared/anchors/README.md).
  double bytes_per_element;
  launcher fused;
  launcher unfused;
  tolerance y_tolerance;
  bool writes_h = false; // compare the tee output too
  tolerance h_tolerance{};
  bool writes_amax = false; // compare amax too
  std::string note;         // shown once in the report (e.g. a stand-in the library needs)
};

std::vector<variant>& registry();

struct registrar {
  explicit registrar(std::vector<variant> family);
};

} // namespace bench
