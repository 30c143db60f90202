// The backward passes of softmax and log-softmax as the engines see them: a gradient_op
// (engine/common.cuh) whose input is the forward's output y and whose second stream is the
// incoming gradient dy, with one plain sum a row.
#pragma once

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"
#include "../expr/expression.hpp"
#include "../expr/load_transforms.hpp"

namespace rowfuse::op {

/// softmax:     dx = y * (dy - s),       s = sum over the row of dy * y;
/// log-softmax: dx = dy - exp(y) * s,    s = sum over the row of dy.
///
/// Masked positions (the forward's mask or causal mask: y = 0 for softmax, y = -inf for
/// log-softmax) give dx = 0 and take no part in s: their output did not depend on the input, so
/// the gradient through the mask is 0, whatever dy holds there (a dy chain that replays the mask
/// fills -inf, which 0 * -inf would turn into NaN). A fully masked row gives 0 everywhere. A NaN
/// in y or in dy at an unmasked position makes s NaN, and with it the whole row, and no other.
///
/// Precision: s is a sum of products of O(|dy|) terms in fp32 (interleaved within a thread, then
/// a tree across threads), and each output is one fma from it; exp(y) takes expf (1-2 ulp), so
/// the outputs are within a few fp32 ulps of |y| (|dy| + |s|), well below a 16-bit output's ulp.
template <bool Log, class Gradient> struct softmax_backward {
  static constexpr char const* name = Log ? "rf::log_softmax_backward" : "rf::softmax_backward";
  using gradient_type = Gradient;
  Gradient gradient;

  struct partial {
    float sum;
  };
  struct stats {
    float sum;
  };

  /// Whether y is a masked position's output.
  static __device__ bool masked(float y) {
    if constexpr (Log)
      return y == rowfuse::detail::neg_inf;
    else
      return y == 0.0f;
  }

  __device__ partial identity() const { return {0.0f}; }

  /// No per-row operands.
  __device__ rowfuse::detail::no_state read_row(index_t) const { return {}; }

  template <int N>
  __device__ void prepare(float (&)[N], float (&)[N], rowfuse::detail::no_state, index_t, index_t,
                          bool) const {}

  /// Over y[0 .. n), dy[0 .. n): the unmasked terms of s.
  template <int K>
  __device__ partial local(float const (&y)[K], float const (&dy)[K], int n) const {
    return {rowfuse::detail::interleaved_sum<K>([&](int i) {
      bool const counted = (n == K || i < n) && !masked(y[i]);
      if constexpr (Log)
        return counted ? dy[i] : 0.0f;
      else
        return counted ? dy[i] * y[i] : 0.0f;
    })};
  }

  __device__ partial merge(partial a, partial b) const { return {a.sum + b.sum}; }

  __device__ stats finalize(partial p, index_t) const { return {p.sum}; }

  /// y becomes dx.
  template <int N>
  __device__ void finish(float (&y)[N], float const (&dy)[N], stats const& s, index_t,
                         index_t) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) {
      if constexpr (Log)
        y[j] = masked(y[j]) ? 0.0f : fmaf(-expf(y[j]), s.sum, dy[j]);
      else
        y[j] = masked(y[j]) ? 0.0f : y[j] * (dy[j] - s.sum);
    }
  }

  template <int N> bool aligned_for_pack() const {
    return gradient.input.aligned_to(
               rowfuse::detail::pack_alignment<typename Gradient::element_type, N>) &&
           detail::chain_allows_pack<N>(gradient);
  }

  __device__ void save(index_t, stats const&) const {}
};

} // namespace rowfuse::op
