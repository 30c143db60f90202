// The per-column parameters of the norms: gamma (scale) and beta (shift), fp32, fp16 or bf16.
#pragma once

#include <string_view>
#include <type_traits>

#include "../detail/numeric.hpp"
#include "../expr/view.hpp"

namespace rowfuse {

/// No gamma, no beta: y is the normalised value itself.
struct no_affine_t {};
inline constexpr no_affine_t no_affine{};

/// y = x_hat * gamma + beta; either may be absent (gamma = 1, beta = 0). For rmsnorm,
/// `zero_centered` stores gamma as an offset from one: y = x_hat * (1 + gamma).
template <class G, class B> struct affine_params {
  view<G const> gamma;
  view<B const> beta;
  bool zero_centered = false;

  affine_params bind(char const* where, index_t cols) const {
    affine_params bound = *this;
    if (beta.data != nullptr && std::string_view(where) == "rf::rmsnorm")
      detail::fail(where, ": beta = ", static_cast<void const*>(beta.data),
                   " given, but rmsnorm has no shift: pass rf::affine(gamma) or "
                   "rf::zero_centered_gamma(gamma)");
    bound.gamma = gamma.bind(where, "gamma", 1, cols); // rf::affine(nullptr) is an error
    if (beta.data != nullptr)
      bound.beta = beta.bind(where, "beta", 1, cols); // beta is optional
    return bound;
  }
};

template <input_element G, input_element B>
constexpr affine_params<G, B> affine(G const* gamma, B const* beta) {
  return {dense(gamma, 1), dense(beta, 1), false};
}
template <input_element G> constexpr affine_params<G, G> affine(G const* gamma) {
  return {dense(gamma, 1), dense(static_cast<G const*>(nullptr), 1), false};
}
/// rmsnorm's y = x * rstd * (1 + gamma): gamma initialised at zero trains like one at one.
template <input_element G> constexpr affine_params<G, G> zero_centered_gamma(G const* gamma) {
  return {dense(gamma, 1), dense(static_cast<G const*>(nullptr), 1), true};
}

/// Per-row statistics a norm can save for its backward pass (fp32, one per row).
struct row_stats {
  float* mean = nullptr;
  float* rstd = nullptr;
};

/// Where the parameter gradients go: fp32 [cols] each; nullptr skips one.
struct affine_grads {
  float* dgamma = nullptr;
  float* dbeta = nullptr;
};

namespace detail {

template <class A> inline constexpr bool is_affine = std::is_same_v<A, no_affine_t>;
template <class G, class B> inline constexpr bool is_affine<affine_params<G, B>> = true;

} // namespace detail
} // namespace rowfuse
