// The host reference of the backward ops: the gradients of softmax, log-softmax, layernorm and
// rmsnorm for any load expressions of the forward's output or input (y or x) and of the incoming
// gradient dy, and any store expression of dx, evaluated row by row in double precision with the
// formulas written out plainly (no code shared with the kernels). Tests compare the GPU against
// it; tests/host/reference_backward.cpp checks it against finite differences of the forward
// reference (reference.hpp).
//
// Each function writes what the kernel would write (dx rounded through the store chain, tee
// targets and keep masks of the load chains, and for the norms dgamma and dbeta rounded to fp32)
// and returns the exact values that reached the final rounding, like the forward reference.
//
// The chains carry the forward's transforms: dy's load chain replays the forward's store-side
// dropout with a load-side rf::dropout of the same (seed, offset) (a dropped element passes a
// zero gradient, a kept one its gradient times 1 / (1 - p), exactly dropout's Jacobian), the
// forward's load-side scale becomes a store-side rf::scale of dx, and for the residual block
// x is the forward's pre-norm sum (tee'd, or recomputed by the forward's own load chain).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "error.hpp"
#include "expr.hpp"
#include "op/affine.hpp"
#include "reference.hpp"

namespace rowfuse::reference {

/// What a norm's backward returns: dx, the exact values that reached the final rounding
/// (rows * cols), and the parameter gradients sum over rows of dy * x_hat (dgamma) and of dy
/// (dbeta) in double, before their rounding to fp32 (cols each, whether written or not).
struct norm_gradients {
  std::vector<double> dx;
  std::vector<double> dgamma;
  std::vector<double> dbeta;
};

namespace detail {

/// Binds the two load expressions and the store expression of a backward op, checks that dy has
/// the shape of the first input (`input_name`: y or x), and runs `row_op(r, a, dy, dx)` on each
/// row, a and dy as the chains deliver them, dx then going through the store chain.
template <class LoadInput, class LoadGrad, class Store, class RowOp>
std::vector<double> evaluate_backward(char const* where, char const* input_name,
                                      LoadInput const& input_expr, LoadGrad const& grad_expr,
                                      Store const& store_expr, RowOp row_op) {
  auto const input = rowfuse::detail::bind(input_expr, where);
  index_t const rows = input.input.rows, cols = input.input.cols;
  auto const grad = rowfuse::detail::bind(grad_expr, where);
  if (grad.input.rows != rows)
    rowfuse::detail::fail(where, ": dy has rows = ", grad.input.rows, ", ", input_name, " has ",
                          rows);
  if (grad.input.cols != cols)
    rowfuse::detail::fail(where, ": dy has cols = ", grad.input.cols, ", ", input_name, " has ",
                          cols);
  auto const store = rowfuse::detail::bind(store_expr, where, rows, cols);
  std::vector<double> values(static_cast<std::size_t>(rows * cols));
  std::vector<double> a(static_cast<std::size_t>(cols)), dy(a.size()), dx(a.size());
  store_context<double> store_ctx{cols, 0.0};
  for (index_t r = 0; r < rows; ++r) {
    load_row(input, r, a);
    load_row(grad, r, dy);
    row_op(r, a, dy, dx);
    store_row(store, r, dx, store_ctx, values);
  }
  store_amax(store, store_ctx);
  return values;
}

/// Whether an element takes no part in the backward of softmax or log-softmax: its y or its dy
/// arrives as -inf. That is the fill of rf::mask and rf::causal_mask when the forward's masks are
/// carried on either chain, and log-softmax's own output where the forward's input was masked.
/// Such an element gets dx = 0 (the gradient of a masked logit) and adds nothing to the row's
/// sum, whatever the other operand holds there.
inline bool masked(double y, double dy) {
  double const inf = std::numeric_limits<double>::infinity();
  return y == -inf || dy == -inf;
}

/// dx = y * (dy - sum(dy * y)) (softmax) or dx = dy - exp(y) * sum(dy) (log-softmax, y the
/// log-probabilities), the sums over the row's unmasked elements. A NaN anywhere in y or dy
/// (unmasked) makes the whole row NaN, as it does in the forward.
inline void softmax_backward_row(std::vector<double> const& y, std::vector<double> const& dy,
                                 std::vector<double>& dx, bool log) {
  double sum = 0.0;
  for (std::size_t c = 0; c < y.size(); ++c)
    if (!masked(y[c], dy[c]))
      sum += log ? dy[c] : dy[c] * y[c];
  for (std::size_t c = 0; c < y.size(); ++c) {
    if (masked(y[c], dy[c]))
      dx[c] = 0.0;
    else
      dx[c] = log ? dy[c] - std::exp(y[c]) * sum : y[c] * (dy[c] - sum);
  }
}

/// The affine parameters bound to the row width, with the checks of the gradients asked for: a
/// dgamma needs a gamma and a dbeta a beta (rmsnorm has none: `has_shift` false).
template <class Affine>
auto bind_backward_affine(char const* where, Affine const& affine, affine_grads grads, index_t cols,
                          bool has_shift) {
  if constexpr (std::is_same_v<Affine, no_affine_t>) {
    if (grads.dgamma != nullptr)
      rowfuse::detail::fail(where, ": dgamma = ", static_cast<void const*>(grads.dgamma),
                            " given, but the norm has no gamma (rf::no_affine): leave it null");
    if (grads.dbeta != nullptr)
      rowfuse::detail::fail(where, ": dbeta = ", static_cast<void const*>(grads.dbeta),
                            " given, but the norm has no beta (rf::no_affine): leave it null");
    return affine;
  } else {
    if (!has_shift && affine.beta.data != nullptr)
      rowfuse::detail::fail(where, ": beta = ", static_cast<void const*>(affine.beta.data),
                            " given, but rmsnorm has no shift: pass rf::affine(gamma) or "
                            "rf::zero_centered_gamma(gamma)");
    if (!has_shift && grads.dbeta != nullptr)
      rowfuse::detail::fail(where, ": dbeta = ", static_cast<void const*>(grads.dbeta),
                            " given, but rmsnorm has no shift: leave it null");
    if (has_shift && grads.dbeta != nullptr && affine.beta.data == nullptr)
      rowfuse::detail::fail(where, ": dbeta = ", static_cast<void const*>(grads.dbeta),
                            " given, but the forward had no beta: pass rf::affine(gamma, beta) or "
                            "leave dbeta null");
    return affine.bind(where, cols);
  }
}

/// gamma' of y = x_hat * gamma': gamma, 1 + gamma when zero-centred, 1 without affine.
template <class Bound> double effective_gamma(Bound const& bound, index_t col) {
  if constexpr (std::is_same_v<Bound, no_affine_t>) {
    return 1.0;
  } else {
    double const g = gamma_at(bound.gamma, col);
    return bound.zero_centered ? 1.0 + g : g;
  }
}

inline void require_saved(char const* where, char const* name, float const* data, index_t rows) {
  if (data == nullptr && rows > 0)
    rowfuse::detail::fail(where, ": ", name, " is a null pointer with ", rows, " rows");
}

/// One row of the norms' backward, x_hat = (x - mean) * rstd and g = gamma' * dy:
///   dx = rstd * (g - mean(g) - x_hat * mean(g * x_hat))   (layernorm: `centered`)
///   dx = rstd * (g - x_hat * mean(g * x_hat))              (rmsnorm: mean = 0)
/// and the row's dy * x_hat and dy added to dgamma and dbeta.
template <class Bound>
void norm_backward_row(Bound const& bound, std::vector<double> const& x,
                       std::vector<double> const& dy, double mean, double rstd, bool centered,
                       std::vector<double>& dx, std::vector<double>& dgamma,
                       std::vector<double>& dbeta) {
  std::size_t const n = x.size();
  std::vector<double> x_hat(n), g(n);
  double sum_g = 0.0, sum_g_x_hat = 0.0;
  for (std::size_t c = 0; c < n; ++c) {
    x_hat[c] = (x[c] - mean) * rstd;
    g[c] = effective_gamma(bound, index_t(c)) * dy[c];
    sum_g += g[c];
    sum_g_x_hat += g[c] * x_hat[c];
    dgamma[c] += dy[c] * x_hat[c];
    dbeta[c] += dy[c];
  }
  double const mean_g = centered ? sum_g / double(n) : 0.0;
  double const mean_g_x_hat = sum_g_x_hat / double(n);
  for (std::size_t c = 0; c < n; ++c)
    dx[c] = rstd * (g[c] - mean_g - x_hat[c] * mean_g_x_hat);
}

/// The norms' backward with the saved fp32 statistics (rmsnorm's `mean` is null). dgamma and
/// dbeta sum over the rows in double, in row order, and are written rounded to fp32 where asked
/// (zeros when there are no rows: an empty sum).
template <class LoadX, class LoadGrad, class StoreGrad, class Affine>
norm_gradients norm_backward(char const* where, LoadX const& x, LoadGrad const& dy,
                             StoreGrad const& dx, Affine const& affine, float const* mean,
                             float const* rstd, affine_grads grads, bool centered) {
  index_t const rows = x.input.rows, cols = x.input.cols;
  auto const bound = bind_backward_affine(where, affine, grads, cols, centered);
  // Bad shapes are reported by the binds in evaluate_backward, before the statistics are read.
  if (rows >= 0 && cols >= 0) {
    if (centered)
      require_saved(where, "saved mean", mean, rows);
    require_saved(where, centered ? "saved rstd" : "rstd", rstd, rows);
  }
  norm_gradients out;
  out.dgamma.assign(std::size_t(std::max<index_t>(cols, 0)), 0.0);
  out.dbeta.assign(out.dgamma.size(), 0.0);
  out.dx = evaluate_backward(
      where, "x", x, dy, dx, [&](index_t r, auto const& xs, auto const& dys, auto& dxs) {
        norm_backward_row(bound, xs, dys, centered ? double(mean[r]) : 0.0, double(rstd[r]),
                          centered, dxs, out.dgamma, out.dbeta);
      });
  for (std::size_t c = 0; c < out.dgamma.size(); ++c) {
    if (grads.dgamma != nullptr)
      grads.dgamma[c] = float(out.dgamma[c]);
    if (grads.dbeta != nullptr)
      grads.dbeta[c] = float(out.dbeta[c]);
  }
  return out;
}

} // namespace detail

/// The gradient of softmax: dx = y * (dy - sum_row(dy * y)). `y` loads the forward's output
/// before its store-side dropout; `dy` loads the incoming gradient, its chain replaying the
/// forward's dropout. Elements whose y or dy arrives as -inf (a mask carried on a chain) get
/// dx = 0 and take no part in the sum.
template <class LoadY, class LoadGrad, class StoreGrad>
std::vector<double> softmax_backward(LoadY const& y, LoadGrad const& dy, StoreGrad const& dx) {
  return detail::evaluate_backward("rf::softmax_backward", "y", y, dy, dx,
                                   [](index_t, auto const& ys, auto const& dys, auto& dxs) {
                                     detail::softmax_backward_row(ys, dys, dxs, false);
                                   });
}

/// The gradient of log-softmax: dx = dy - exp(y) * sum_row(dy), y the forward's output (the
/// log-probabilities). Elements whose y or dy arrives as -inf (the forward's masked elements,
/// or a mask carried on dy's chain) get dx = 0 and take no part in the sum.
template <class LoadY, class LoadGrad, class StoreGrad>
std::vector<double> log_softmax_backward(LoadY const& y, LoadGrad const& dy, StoreGrad const& dx) {
  return detail::evaluate_backward("rf::log_softmax_backward", "y", y, dy, dx,
                                   [](index_t, auto const& ys, auto const& dys, auto& dxs) {
                                     detail::softmax_backward_row(ys, dys, dxs, true);
                                   });
}

/// The gradient of layernorm, from the forward's input x (or its pre-norm sum), the incoming
/// gradient dy, the forward's affine and the mean and rstd it saved (fp32, one per row, both
/// required); dgamma and dbeta (fp32 [cols]) where `grads` points.
template <class LoadX, class LoadGrad, class StoreGrad, class Affine>
norm_gradients layernorm_backward(LoadX const& x, LoadGrad const& dy, StoreGrad const& dx,
                                  Affine const& affine, row_stats saved, affine_grads grads = {}) {
  return detail::norm_backward("rf::layernorm_backward", x, dy, dx, affine, saved.mean, saved.rstd,
                               grads, true);
}

/// The gradient of rmsnorm, from x, dy, the forward's affine (gamma or zero-centred gamma) and
/// the rstd it saved (fp32, one per row, required); dgamma (fp32 [cols]) where `grads` points.
template <class LoadX, class LoadGrad, class StoreGrad, class Affine>
norm_gradients rmsnorm_backward(LoadX const& x, LoadGrad const& dy, StoreGrad const& dx,
                                Affine const& affine, float const* rstd, affine_grads grads = {}) {
  return detail::norm_backward("rf::rmsnorm_backward", x, dy, dx, affine, nullptr, rstd, grads,
                               false);
}

} // namespace rowfuse::reference
