// Store transforms: element-wise steps between the op's result and the global store.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "../detail/numeric.hpp"
#include "../detail/philox.hpp"
#include "../detail/vector_io.hpp"
#include "../error.hpp"
#include "node.hpp"
#include "view.hpp"

namespace rowfuse {

/// Inverted dropout with an in-kernel counter-based generator. Element i = row * cols + col
/// (64-bit) draws the 16-bit number u = half i % 2 (0: low 16 bits, 1: high) of word (i % 8) / 2
/// of philox4x32_10(counter = {lo(i / 8), hi(i / 8), lo(offset), hi(offset)},
/// key = {lo(seed), hi(seed)}), that is of detail::philox_quad(seed, offset, i / 8). It is kept
/// when u >= threshold = round(p * 65536), so the drop probability is threshold / 65536, within
/// 2^-17 of p, and then scaled by 1 / (1 - p); dropped elements become 0. One call serves 8
/// elements, not 4, because Philox's 10 rounds of multiplies, not memory traffic, set the speed
/// of a fused attention kernel with dropout, and a step of 2^-16 in p is immaterial to dropout.
/// The mask is a function of (seed, offset, row, col) alone: the same for every engine, pack
/// width, pack alignment and launch shape, and on the host. Advance `offset` by
/// ceil(rows * cols / 8) or more between calls that share a seed.
///
/// On the load side it drops the transformed input (bias -> dropout -> + residual -> layernorm,
/// the residual branch of a transformer block); there and on the store side the element index
/// is the same, so give the two sides different offsets when one op uses both.
struct dropout_node : node_tag {
  static constexpr bool load_side = true, store_side = true;
  static constexpr char const* name = "dropout";
  float p;
  std::uint64_t seed;
  std::uint64_t offset;
  view<std::uint8_t> keep_mask; // written 1 (kept) / 0 (dropped) when data is not null
  std::uint32_t threshold = 0;  // set by bind: round(p * 65536), in [0, 65536]
  float keep_scale = 1.0f;      // set by bind: 1 / (1 - p)

  /// Whether 16-bit half `h` (0 = low) of `w` keeps its element; h is a compile-time constant
  /// on the fast paths, so this is a mask or a shift.
  ROWFUSE_HD bool keeps(std::uint32_t w, int h) const {
    return ((w >> (16 * h)) & 0xffffu) >= threshold;
  }

  /// Word k of a Philox result, selected without indexing (a run-time index into the result
  /// would put it in local memory).
  static ROWFUSE_HD std::uint32_t word(detail::philox_u32x4 const& u, std::uint64_t k) {
    return k == 0 ? u.v[0] : k == 1 ? u.v[1] : k == 2 ? u.v[2] : u.v[3];
  }

  template <int N, class V, class Context>
  ROWFUSE_HD void apply(V (&x)[N], index_t row, index_t col0, Context& context) const {
    // A load-side pass that only gathers statistics (emit = false) must not write the mask.
    bool emit = true;
    if constexpr (requires { context.emit; })
      emit = context.emit;
    // The host reference (V = double) scales in double; kernels use the float 1 / (1 - p).
    V const scale = std::is_same_v<V, double> ? V(1) / (V(1) - V(p)) : V(keep_scale);
    std::uint64_t const first = std::uint64_t(row * context.cols + col0);
    bool kept[N];
    if constexpr (N % 8 == 0) {
      if (first % 8 == 0) { // whole blocks of 8: one Philox call each, halves at fixed places
        ROWFUSE_UNROLL
        for (int b = 0; b < N / 8; ++b) {
          detail::philox_u32x4 const u = detail::philox_quad(seed, offset, first / 8 + b);
          ROWFUSE_UNROLL
          for (int k = 0; k < 8; ++k)
            kept[8 * b + k] = keeps(u.v[k / 2], k % 2);
        }
        finish(x, kept, scale, row, col0, emit);
        return;
      }
    }
    if constexpr (N == 4) {
      if (first % 4 == 0) { // half a block: the low or the high pair of words
        detail::philox_u32x4 const u = detail::philox_quad(seed, offset, first / 8);
        bool const high = first % 8 != 0;
        std::uint32_t const w0 = high ? u.v[2] : u.v[0], w1 = high ? u.v[3] : u.v[1];
        kept[0] = keeps(w0, 0);
        kept[1] = keeps(w0, 1);
        kept[2] = keeps(w1, 0);
        kept[3] = keeps(w1, 1);
        finish(x, kept, scale, row, col0, emit);
        return;
      }
    }
    // Any width at any place: a new call only where the pack crosses into the next block.
    detail::philox_u32x4 u = detail::philox_quad(seed, offset, first / 8);
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      std::uint64_t const i = first + j;
      if (j > 0 && i % 8 == 0)
        u = detail::philox_quad(seed, offset, i / 8);
      kept[j] = keeps(word(u, i % 8 / 2), int(i % 2));
    }
    finish(x, kept, scale, row, col0, emit);
  }

  template <int N, class V>
  ROWFUSE_HD void finish(V (&x)[N], bool const (&kept)[N], V scale, index_t row, index_t col0,
                         bool emit) const {
    std::uint8_t bytes[N];
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      x[j] = kept[j] ? x[j] * scale : V(0);
      bytes[j] = kept[j];
    }
    if (emit && keep_mask.data != nullptr) {
      std::uint8_t* const to = keep_mask.row(row) + col0;
      if constexpr ((N & (N - 1)) == 0) {
        detail::store_pack<N>(to, bytes);
      } else { // no single access fits; the engines only use powers of two, tests use any N
        ROWFUSE_UNROLL
        for (int j = 0; j < N; ++j)
          to[j] = bytes[j];
      }
    }
  }

  dropout_node bind(char const* where, index_t rows, index_t cols) const {
    detail::require(p >= 0.0f && p < 1.0f, where, "dropout p", p, "must be in [0, 1)");
    dropout_node bound = *this;
    // Nearest multiple of 2^-16 (ties up); p just below 1 rounds to 65536: nothing is kept.
    bound.threshold = std::uint32_t(std::floor(double(p) * 65536.0 + 0.5));
    bound.keep_scale = float(1.0 / (1.0 - double(p)));
    if (keep_mask.data != nullptr)
      bound.keep_mask = keep_mask.bind(where, "dropout keep_mask", rows, cols);
    return bound;
  }
  template <int N> bool aligned_for_pack() const {
    return keep_mask.data == nullptr ||
           keep_mask.aligned_to(detail::pack_alignment<std::uint8_t, N>);
  }
};

/// Rounds the result to T on the way out, after multiplying it by `scale` (fp8 recipes divide
/// by a per-tensor scale to use the format's range). With `amax`, max |y| before scaling is
/// folded into *amax (atomically, across the whole launch: *amax = max(*amax, max |y|); zero it
/// first for a fresh value). With `saturate`, out-of-range values (infinities too) become the
/// largest finite T instead of inf or NaN. Must be the last store transform, and T must be the
/// output view's element type.
template <class T> struct cast_node : node_tag {
  static constexpr bool load_side = false, store_side = true;
  static constexpr char const* name = "cast";
  using target_type = T;
  float scale = 1.0f;
  float* amax = nullptr;
  bool saturate = true;

  template <int N, class V>
  ROWFUSE_HD void apply(V (&x)[N], index_t, index_t, store_context<V>& context) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      if (amax != nullptr) {
        V const magnitude = x[j] < V(0) ? -x[j] : x[j];
        // NaN compares false and is left out of amax, as fmax would leave it out.
        if (magnitude > context.amax)
          context.amax = magnitude;
      }
      x[j] *= V(scale);
    }
  }
  cast_node bind(char const* where, index_t, index_t) const {
    detail::require(std::isfinite(scale) && scale > 0.0f, where, "cast scale", scale,
                    "must be finite and > 0");
    return *this;
  }
  template <int N> bool aligned_for_pack() const { return true; }
};

template <class T> inline constexpr bool is_cast_node = false;
template <class T> inline constexpr bool is_cast_node<cast_node<T>> = true;

// ---- the spellings users write ------------------------------------------------------------

/// rf::dropout(p, seed, offset) or, to keep the mask for the backward pass,
/// rf::dropout(p, seed, offset, keep_mask) with keep_mask a uint8 [rows, cols] buffer.
inline dropout_node dropout(float p, std::uint64_t seed, std::uint64_t offset = 0,
                            std::uint8_t* keep_mask = nullptr, index_t mask_ld = -1) {
  return {{}, p, seed, offset, dense(keep_mask, -1, -1, mask_ld)};
}

template <element T>
constexpr cast_node<T> cast(float scale = 1.0f, float* amax = nullptr, bool saturate = true) {
  return {{}, scale, amax, saturate};
}

} // namespace rowfuse
