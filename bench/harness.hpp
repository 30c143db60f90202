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
/// x, residual, prepared, y and h are [rows, cols] with row r at element r * ld: ld = cols, or
/// with --misalign ld = cols + 1 and every pointer below but the fp32 ones (amax, row_a/b, the
/// saved statistics, the parameter gradients and their partials) and t1, t2 one element of its
/// own type past a 16-byte boundary. The unfused temporaries stay compact (ld = cols) and
/// aligned, as a framework allocates a fresh tensor for the result of each step.
///
/// The backward variants read x (the forward's input, or the pre-norm sum) or prepared (the
/// forward's output y) and take residual as the incoming gradient dy; y is dx, and h the second
/// gradient of the residual block.
struct buffers {
  long rows = 0, cols = 0;
  long ld = 0;                    // elements from one row to the next of x, residual, y and h
  void const* x = nullptr;        // [rows, cols] input
  void const* residual = nullptr; // [rows, cols] second input (residual pipelines)
  void const* bias = nullptr;     // [cols], per-column vectors in the input type
  void const* gamma = nullptr;
  void const* beta = nullptr;
  void* prepared = nullptr;    // [rows, cols] the forward's output, written by variant::prepare
  float* saved_mean = nullptr; // [rows] the forward's statistics, written by variant::prepare
  float* saved_rstd = nullptr;
  void* y = nullptr;     // [rows, cols] output
  void* h = nullptr;     // [rows, cols] tee output (the pre-norm sum)
  float* amax = nullptr; // one float, max |y| before the fp8 scale
  void* t1 = nullptr;    // [rows, cols] temporaries of the unfused pipelines, compact
  void* t2 = nullptr;
  float* row_a = nullptr; // [rows] per-row statistics of the unfused pipelines
  float* row_b = nullptr;
  float* dgamma = nullptr; // [cols] parameter gradients of the norms' backward, fp32
  float* dbeta = nullptr;
  float* column_partials = nullptr; // the unfused column sums' partials: 2 * column_partials_size
  struct scratch* cub = nullptr;    // CUB's temporary storage, grown on first use
};

/// CUB temporary storage: sized on the untimed first run, reused by the timed ones.
struct scratch {
  void* data = nullptr;
  std::size_t bytes = 0;
  void* at_least(std::size_t n);
  ~scratch();
};

using launcher = void (*)(buffers const&, cudaStream_t);

/// |fused - unfused| <= atol + atol_per_col / cols + rtol * |unfused| + per_weight * |w| for
/// every element, w the element of the variant's prepared input (the softmax family's y) where
/// per_weight is not 0.
struct tolerance {
  double rtol = 0, atol = 0, atol_per_col = 0, per_weight = 0;
};

/// The most floats one array of the unfused column sums' partials holds: [chunks, cols] with
/// chunks * cols <= this, or one chunk of cols where cols is larger (unfused_kit.cuh).
inline constexpr long column_partials_size = 1L << 16;

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
  launcher fused; // null where this build has no fused call for the op: unfused and copy only
  launcher unfused;
  tolerance y_tolerance;
  bool writes_h = false; // compare the tee output too
  tolerance h_tolerance{};
  bool writes_amax = false; // compare amax too
  std::string note;         // shown once in the report (e.g. a stand-in the library needs)
  /// Writes the inputs a backward variant needs besides x and residual (buffers::prepared, the
  /// saved statistics) from them, once per case before anything is checked or timed; given the
  /// unfused buffers, whose temporaries it may use. Null: none.
  launcher prepare = nullptr;
};

std::vector<variant>& registry();

struct registrar {
  explicit registrar(std::vector<variant> family);
};

} // namespace bench
