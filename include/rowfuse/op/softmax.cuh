// softmax and log-softmax as the engines see them: the row statistics (max, sum of exp), how
// partial statistics merge, and how each output is made from them.
#pragma once

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"

namespace rowfuse::op {

/// Log selects log-softmax. Accurate selects expf over exp2f (see exp_shifted), chosen from
/// the output type by the op's caller.
template <bool Log, bool Accurate> struct softmax {
  static constexpr char const* name = Log ? "rf::log_softmax" : "rf::softmax";

  /// max of the elements seen, and the sum of exp(x - max) over them. A part that has seen
  /// only -inf (or nothing) is {-inf, 0}.
  struct partial {
    float max;
    float sum;
  };
  /// y = exp(x - shift) * inv_sum, or for log-softmax y = x - shift - log_sum.
  struct stats {
    float shift;
    float sum;
    float inv_sum;
    float log_sum;
    bool empty; // fully masked (sum 0): softmax gives 0, log-softmax -inf
  };

  __device__ partial identity() const { return {rowfuse::detail::neg_inf, 0.0f}; }

  /// Over v[0 .. n): two passes over registers, max first, so each element costs one exp.
  /// n == K (a full thread) takes the unguarded loops.
  template <int K> __device__ partial local(float const (&v)[K], int n) const {
    float m = rowfuse::detail::neg_inf;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      if (n == K || i < n)
        m = fmaxf(m, v[i]); // fmaxf skips NaN; the sum below carries it
    float const shift = m == rowfuse::detail::neg_inf ? 0.0f : m;
    float s = 0.0f;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      if (n == K || i < n)
        s += rowfuse::detail::exp_shifted<Accurate>(v[i], shift);
    return {m, s};
  }

  // ---- the register engines' two-phase protocol ----------------------------------------
  // With the whole row in registers, reduce the max first and then the sum of exp(x - max),
  // every lane already knowing the row's max: each shuffle carries one float and no merge
  // needs an exp. (The one-phase merge above costs two exps per shuffle step; on the H200 at
  // 32-128 fp16 columns that left softmax at 0.57-0.74 of copy where the same engine without
  // arithmetic reached 0.93.)

  /// Phase 1: the max over v[0 .. n). fmaxf skips NaN; phase 2's sum carries it.
  template <int K> __device__ float phase1(float const (&v)[K], int n) const {
    float m = rowfuse::detail::neg_inf;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      if (n == K || i < n)
        m = fmaxf(m, v[i]);
    return m;
  }
  __device__ float merge1(float a, float b) const { return fmaxf(a, b); }

  /// Phase 2: the sum of exp(v - row max). softmax rewrites v into those exps, so finishing is
  /// one multiply; log-softmax keeps x.
  template <int K> __device__ float phase2(float (&v)[K], int n, float row_max, index_t) const {
    float const shift = row_max == rowfuse::detail::neg_inf ? 0.0f : row_max;
    float s = 0.0f;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i) {
      float const e = rowfuse::detail::exp_shifted<Accurate>(v[i], shift);
      if constexpr (!Log)
        v[i] = e;
      if (n == K || i < n)
        s += e;
    }
    return s;
  }
  __device__ float merge2(float a, float b) const { return a + b; }

  __device__ stats finalize2(float row_max, float sum, index_t cols) const {
    return finalize(partial{row_max, sum}, cols);
  }

  /// Outputs from phase 2's v.
  template <int N>
  __device__ void finish2(float (&x)[N], stats const& s, index_t row, index_t col0) const {
    if constexpr (Log) {
      finish(x, s, row, col0);
    } else {
      ROWFUSE_UNROLL
      for (int j = 0; j < N; ++j)
        x[j] *= s.inv_sum;
    }
  }

  __device__ partial merge(partial a, partial b) const {
    float const m = fmaxf(a.max, b.max);
    if (m == rowfuse::detail::neg_inf)
      return {m, a.sum + b.sum}; // keeps a NaN sum, avoids -inf - -inf
    return {m, a.sum * rowfuse::detail::exp_shifted<Accurate>(a.max, m) +
                   b.sum * rowfuse::detail::exp_shifted<Accurate>(b.max, m)};
  }

  /// Once per row and lane, so kept cheap: a correctly rounded reciprocal (one MUFU and a fix-up,
  /// where 1.0f / sum is a division subroutine), and the log only for log-softmax. An empty row
  /// gets inv_sum = 0, so finishing is a plain multiply of zeros.
  __device__ stats finalize(partial p, index_t) const {
    float const shift = p.max == rowfuse::detail::neg_inf ? 0.0f : p.max;
    bool const empty = p.sum == 0.0f;
    float const log_sum = Log ? logf(p.sum) : 0.0f;
    return {shift, p.sum, empty ? 0.0f : __frcp_rn(p.sum), log_sum, empty};
  }

  /// One-phase finish (the streaming engines): x is the transformed input.
  template <int N> __device__ void finish(float (&x)[N], stats const& s, index_t, index_t) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      // fp32 outputs too multiply by the rounded reciprocal: 1.5 ulp, far inside 1e-6.
      if constexpr (Log)
        x[j] = s.empty ? rowfuse::detail::neg_inf : x[j] - s.shift - s.log_sum;
      else
        x[j] = rowfuse::detail::exp_shifted<Accurate>(x[j], s.shift) * s.inv_sum;
    }
  }

  template <int N> bool aligned_for_pack() const { return true; }

  __device__ void save(index_t, stats const&) const {}
};

} // namespace rowfuse::op
