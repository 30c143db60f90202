// Small device helpers shared by the ops and engines.
#pragma once

#include <cstring>
#include <limits>

#include "config.hpp"

namespace rowfuse::detail {

inline constexpr float log2_e = 1.4426950408889634f;
inline constexpr float neg_inf = -std::numeric_limits<float>::infinity();

/// exp(x - shift). The accurate path (fp32 outputs: within 1e-6 relative) uses expf; the fast
/// path (16-bit and fp8 outputs, whose ulp is 2^-8 or coarser) is exp2 of (x - shift) * log2(e).
/// Both subtract first, so the row's maximum gives exactly exp(0) = 1 and a one-element row
/// exactly 1 (softmax) or 0 (log-softmax).
template <bool Accurate> __device__ __forceinline__ float exp_shifted(float x, float shift) {
  if constexpr (Accurate) {
    return expf(x - shift);
  } else {
    // One MUFU.EX2, flushing results below 2^-126 to zero: exp2f adds a scaling step for
    // subnormal results, which costs four instructions an element and changes a 16-bit or fp8
    // output only for probabilities under 1.2e-38.
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"((x - shift) * log2_e));
    return y;
  }
}

/// Moves any trivially copyable struct of 32-bit words (an op's partial statistics) through
/// `shuffle`, one word at a time.
template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(T const& value, Shuffle shuffle) {
  static_assert(sizeof(T) % 4 == 0, "partials are made of 32-bit words");
  constexpr int words = sizeof(T) / 4;
  unsigned in[words], out[words];
  std::memcpy(in, &value, sizeof(T));
  ROWFUSE_UNROLL
  for (int i = 0; i < words; ++i)
    out[i] = shuffle(in[i]);
  T result;
  std::memcpy(&result, out, sizeof(T));
  return result;
}

/// Every lane gets the value of lane ^ lane_mask.
template <class T> __device__ __forceinline__ T shfl_xor(T const& value, int lane_mask) {
  return shuffle_words(value,
                       [=](unsigned w) { return __shfl_xor_sync(0xffffffffu, w, lane_mask); });
}

/// Every lane gets `source_lane`'s value.
template <class T> __device__ __forceinline__ T shfl_from(T const& value, int source_lane) {
  return shuffle_words(value, [=](unsigned w) { return __shfl_sync(0xffffffffu, w, source_lane); });
}

/// Folds a non-negative float into *target as max, across the whole grid. Non-negative IEEE
/// floats order like their bit patterns as signed integers, so atomicMax on the bits is exact.
__device__ __forceinline__ void atomic_max_nonnegative(float* target, float value) {
  atomicMax(reinterpret_cast<int*>(target), __float_as_int(value));
}

} // namespace rowfuse::detail
