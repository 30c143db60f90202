// layernorm and rmsnorm as the engines see them.
#pragma once

#include "../detail/config.hpp"
#include "../detail/device_math.cuh"
#include "../expr/load_transforms.hpp"
#include "affine.hpp"

namespace rowfuse::op {

namespace norm_detail {

template <int N, class G, class B>
bool affine_allows_pack(affine_params<G, B> const& affine) {
  return rowfuse::detail::view_allows_pack<N>(affine.gamma) &&
         (affine.beta.data == nullptr || rowfuse::detail::view_allows_pack<N>(affine.beta));
}
template <int N>
bool affine_allows_pack(no_affine_t const&) {
  return true;
}

/// y[j] = y[j] * gamma(col0 + j) [+ beta(col0 + j)], with vector loads of gamma and beta.
template <int N, class G, class B>
__device__ void apply_affine(float (&y)[N], affine_params<G, B> const& affine, index_t col0) {
  float g[N];
  rowfuse::detail::load_operand<N>(affine.gamma, 0, col0, g);
  ROWFUSE_UNROLL
  for (int j = 0; j < N; ++j) y[j] *= affine.zero_centered ? 1.0f + g[j] : g[j];
  if (affine.beta.data != nullptr) {
    float b[N];
    rowfuse::detail::load_operand<N>(affine.beta, 0, col0, b);
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) y[j] += b[j];
  }
}

template <int N>
__device__ void apply_affine(float (&)[N], no_affine_t const&, index_t) {}

}  // namespace norm_detail

/// layernorm: y = (x - mean) * rstd [* gamma + beta], rstd = 1 / sqrt(var + eps). Statistics
/// are Welford triples: each thread's are exact two-pass sums over its registers or pack, and
/// threads merge them with Chan's pairwise update, which keeps rows of mean 1e4 and unit
/// variance accurate in fp32 where sum / sum-of-squares would lose every digit.
template <class Affine>
struct layernorm {
  static constexpr char const* name = "rf::layernorm";
  static constexpr bool local_in_place_available = false;
  Affine affine;
  float eps;
  row_stats saved;

  struct partial {
    float count;
    float mean;
    float m2;  // sum of squared deviations from mean
  };
  struct stats {
    float mean;
    float rstd;
  };

  __device__ partial identity() const { return {0.0f, 0.0f, 0.0f}; }

  template <int K>
  __device__ partial local(float const (&v)[K], int n) const {
    if (n == 0) return identity();
    float sum = 0.0f;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      if (n == K || i < n) sum += v[i];
    float const mean = sum / float(n);
    float m2 = 0.0f;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      if (n == K || i < n) m2 += (v[i] - mean) * (v[i] - mean);
    return {float(n), mean, m2};
  }

  __device__ partial merge(partial a, partial b) const {
    float const count = a.count + b.count;
    if (count == 0.0f) return a;
    float const delta = b.mean - a.mean;
    float const b_share = b.count / count;
    return {count, a.mean + delta * b_share, a.m2 + b.m2 + delta * delta * a.count * b_share};
  }

  __device__ stats finalize(partial p, index_t cols) const {
    float const var = p.m2 / float(cols);
    return {p.mean, rsqrtf(var + eps)};
  }

  template <int N>
  __device__ void finish(float (&x)[N], stats const& s, index_t, index_t col0) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) x[j] = (x[j] - s.mean) * s.rstd;
    norm_detail::apply_affine(x, affine, col0);
  }

  template <int N>
  bool aligned_for_pack() const {
    return norm_detail::affine_allows_pack<N>(affine);
  }

  __device__ void save(index_t row, stats const& s) const {
    if (saved.mean) saved.mean[row] = s.mean;
    if (saved.rstd) saved.rstd[row] = s.rstd;
  }
};

/// rmsnorm: y = x * rstd [* gamma or * (1 + gamma)], rstd = 1 / sqrt(mean(x^2) + eps).
template <class Affine>
struct rmsnorm {
  static constexpr char const* name = "rf::rmsnorm";
  static constexpr bool local_in_place_available = false;
  Affine affine;
  float eps;
  float* saved_rstd;

  struct partial {
    float sum_squares;
  };
  struct stats {
    float rstd;
  };

  __device__ partial identity() const { return {0.0f}; }

  template <int K>
  __device__ partial local(float const (&v)[K], int n) const {
    float s = 0.0f;
    ROWFUSE_UNROLL
    for (int i = 0; i < K; ++i)
      if (n == K || i < n) s += v[i] * v[i];
    return {s};
  }

  __device__ partial merge(partial a, partial b) const { return {a.sum_squares + b.sum_squares}; }

  __device__ stats finalize(partial p, index_t cols) const {
    return {rsqrtf(p.sum_squares / float(cols) + eps)};
  }

  template <int N>
  __device__ void finish(float (&x)[N], stats const& s, index_t, index_t col0) const {
    ROWFUSE_UNROLL
    for (int j = 0; j < N; ++j) x[j] *= s.rstd;
    norm_detail::apply_affine(x, affine, col0);
  }

  template <int N>
  bool aligned_for_pack() const {
    return norm_detail::affine_allows_pack<N>(affine);
  }

  __device__ void save(index_t row, stats const& s) const {
    if (saved_rstd) saved_rstd[row] = s.rstd;
  }
};

}  // namespace rowfuse::op
