// The ops a user calls: each is one kernel launch over a load and a store expression.
#pragma once

#include <type_traits>

#include "dispatch/launch.cuh"
#include "error.hpp"
#include "op/affine.hpp"
#include "op/norm.cuh"
#include "op/softmax.cuh"

namespace rowfuse {

namespace detail {

/// fp32 outputs take the accurate exp (1e-6 relative); narrower outputs the fast one, whose
/// 2^-22 relative error is far below their ulp. That holds for log-softmax too: its outputs
/// near 0 are -log(sum), and the sum's relative error passes into them as an absolute error of
/// ~2^-22 times the small terms' share, below even an fp16 subnormal's spacing.
template <class Store>
inline constexpr bool accurate_exp = std::is_same_v<typename Store::element_type, float>;

template <class Affine> Affine bind_affine(Affine const& affine, char const* where, index_t cols) {
  if constexpr (std::is_same_v<Affine, no_affine_t>)
    return affine;
  else
    return affine.bind(where, cols);
}

} // namespace detail

/// y = softmax(load) per row, through the store expression; one kernel. Returns the plan.
/// `Range` bounds the widths this call site sees (fewer kernels compiled); see cols_range.
template <cols_range Range = any_cols, class Load, class Store>
plan softmax(Load const& load, Store const& store, cudaStream_t stream = nullptr,
             launch_options const& options = {}) {
  return detail::run_op<Range>(op::softmax<false, detail::accurate_exp<Store>>{}, load, store,
                               stream, options);
}

/// y = log_softmax(load) per row. A fully masked row gives -inf.
template <cols_range Range = any_cols, class Load, class Store>
plan log_softmax(Load const& load, Store const& store, cudaStream_t stream = nullptr,
                 launch_options const& options = {}) {
  return detail::run_op<Range>(op::softmax<true, detail::accurate_exp<Store>>{}, load, store,
                               stream, options);
}

/// y = (x - mean) * rstd [* gamma + beta] per row; `affine` is rf::affine(gamma, beta),
/// rf::affine(gamma) or rf::no_affine; `stats` optionally saves mean and rstd (fp32, per row).
template <cols_range Range = any_cols, class Load, class Store, class Affine>
plan layernorm(Load const& load, Store const& store, Affine const& affine, float eps,
               cudaStream_t stream = nullptr, row_stats stats = {},
               launch_options const& options = {}) {
  static_assert(detail::is_affine<Affine>,
                "rowfuse: rf::layernorm's third argument is rf::affine(gamma, beta), "
                "rf::affine(gamma) or rf::no_affine");
  char const* where = "rf::layernorm";
  detail::check_eps(where, eps);
  return detail::run_op<Range>(
      op::layernorm<Affine>{detail::bind_affine(affine, where, load.input.cols), eps, stats}, load,
      store, stream, options);
}

/// y = x * rstd [* gamma, or * (1 + gamma) with rf::zero_centered_gamma] per row;
/// `rstd` optionally saves rstd (fp32, per row).
template <cols_range Range = any_cols, class Load, class Store, class Affine>
plan rmsnorm(Load const& load, Store const& store, Affine const& affine, float eps,
             cudaStream_t stream = nullptr, float* rstd = nullptr,
             launch_options const& options = {}) {
  static_assert(detail::is_affine<Affine>,
                "rowfuse: rf::rmsnorm's third argument is rf::affine(gamma), "
                "rf::zero_centered_gamma(gamma) or rf::no_affine");
  char const* where = "rf::rmsnorm";
  detail::check_eps(where, eps);
  return detail::run_op<Range>(
      op::rmsnorm<Affine>{detail::bind_affine(affine, where, load.input.cols), eps, rstd}, load,
      store, stream, options);
}

} // namespace rowfuse
