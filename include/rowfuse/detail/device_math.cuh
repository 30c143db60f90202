// Small device helpers shared by the ops and engines.
#pragma once

#include <cstring>
#include <limits>

#include "config.hpp"

namespace rowfuse::detail {

inline constexpr float log2_e = 1.4426950408889634f;
inline constexpr float neg_inf = -std::numeric_limits<float>::infinity();

/// 2^x by MUFU.EX2 (ex2.approx.ftz): 2 ulp, results below 2^-126 flushed to zero.
__device__ __forceinline__ float exp2_approx(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

/// exp(x - shift) * 2^Bias. The accurate path (fp32 outputs: within 1e-6 relative) uses expf,
/// which keeps subnormal results itself, so it takes no bias; the fast path (16-bit and fp8
/// outputs, whose ulp is 2^-8 or coarser) is one MUFU.EX2 of (x - shift) * log2(e) + Bias.
/// Both subtract first, so the row's maximum gives exp(0) = 1, or ex2(Bias) = 2^Bias, exactly,
/// and a one-element row gives exactly 1 (softmax) or 0 (log-softmax).
///
/// MUFU.EX2 (ex2.approx.ftz) flushes results below 2^-126 to zero; exp2f keeps them with a
/// scaling step of four instructions an element. A caller that needs such results (softmax,
/// whose fp32 output may be a subnormal down to 2^-149 that the store chain scales into a bf16
/// or fp8 value) passes Bias = 24 and divides by 2^24 where it multiplies anyway (its 1 / sum):
/// every exp down to 2^-150 is then a normal float, and the final multiply, which does not
/// flush, makes the subnormal. The bias rides in the FFMA that replaces the FMUL by log2(e), so
/// it costs no instruction; it rounds the exponent near the maximum (16 to 32) to 2^-20
/// absolute, 1.4e-6 relative in the result: ample for the 16-bit and fp8 outputs that take
/// this path (their ulps are 2^-8 and coarser; fp32 outputs take expf).
template <bool Accurate, int Bias = 0>
__device__ __forceinline__ float exp_shifted(float x, float shift) {
  if constexpr (Accurate) {
    static_assert(Bias == 0, "expf keeps subnormal results: the accurate path takes no bias");
    return expf(x - shift);
  } else {
    if constexpr (Bias == 0)
      return exp2_approx((x - shift) * log2_e);
    else
      return exp2_approx(fmaf(x - shift, log2_e, float(Bias)));
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

/// The sum of term(i) over i in [0, K), in four interleaved running sums combined by pairs at
/// the end: the rounding error grows with K / 4 + 2 additions instead of K, for three registers
/// more than one running sum. (A full pairwise tree would hold K / 2 partial sums beside the
/// row and spills the 32-value threads of 1024-thread blocks.)
template <int K, class Term> __device__ __forceinline__ float interleaved_sum(Term term) {
  constexpr int L = K < 4 ? K : 4;
  float acc[L];
  ROWFUSE_UNROLL
  for (int l = 0; l < L; ++l)
    acc[l] = term(l);
  ROWFUSE_UNROLL
  for (int i = L; i < K; ++i)
    acc[i % L] += term(i);
  if constexpr (L == 4)
    return (acc[0] + acc[1]) + (acc[2] + acc[3]);
  else if constexpr (L == 3)
    return (acc[0] + acc[1]) + acc[2];
  else if constexpr (L == 2)
    return acc[0] + acc[1];
  else
    return acc[0];
}

} // namespace rowfuse::detail
