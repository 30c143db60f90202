// The host reference: any load and store expression over host memory, evaluated row by row in
// double precision, with the ops written out plainly (no shared code with the kernels' op
// math). Tests compare the GPU against it; it is checked against hand-computed cases.
//
// Each function writes what the kernel would write (the rounded output, tee targets, dropout
// masks, amax, mean and rstd) through the expression's own, here host, pointers, and returns
// the exact values that reached the final rounding (after the store transforms and rf::cast's
// scale; clamped to the type's range where the rounding saturates), rows * cols of them.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "error.hpp"
#include "expr.hpp"
#include "op/affine.hpp"

namespace rowfuse::reference {

namespace detail {

template <class G> double gamma_at(view<G const> const& gamma, index_t col) {
  return gamma.data ? rowfuse::detail::widen<double>(gamma.data[col]) : 1.0;
}

/// x[c] = the load chain's value at (r, c) in double, for every column; tee targets and
/// dropout keep masks of the chain are written as the kernel writes them.
template <class BoundLoad> void load_row(BoundLoad const& load, index_t r, std::vector<double>& x) {
  load_context context{true, load.input.cols};
  for (index_t c = 0; c < load.input.cols; ++c) {
    double v[1];
    load.template load<1>(r, c, v, context);
    x[std::size_t(c)] = v[0];
  }
}

/// Runs the store chain over row r's results y, writes them rounded to the output type and
/// records in `values` (rows * cols) the exact values that reached the rounding. `context`
/// carries rf::cast's amax across rows; store_amax folds it into the amax output at the end.
template <class BoundStore>
void store_row(BoundStore const& store, index_t r, std::vector<double> const& y,
               store_context<double>& context, std::vector<double>& values) {
  using T = typename BoundStore::element_type;
  double const limit = element_traits<T>::max_finite;
  bool const saturate = store.saturates();
  index_t const cols = context.cols;
  for (index_t c = 0; c < cols; ++c) {
    double v[1] = {y[std::size_t(c)]};
    rowfuse::detail::apply_chain(store.nodes, v, r, c, context);
    double const exact = saturate && !std::isnan(v[0]) ? std::clamp(v[0], -limit, limit) : v[0];
    values[std::size_t(r * cols + c)] = exact;
    store.output.at(r, c) = rowfuse::detail::narrow<T>(v[0], saturate);
  }
}
template <class BoundStore>
void store_amax(BoundStore const& store, store_context<double> const& context) {
  if (float* amax = store.amax_output())
    *amax = std::max(*amax, float(context.amax));
}

/// Loads, runs `row_op(row, x, y)` on each row and stores. The heart of every reference op.
template <class L, class S, class RowOp>
std::vector<double> evaluate(char const* where, L const& load_expr, S const& store_expr,
                             RowOp row_op) {
  auto const load = rowfuse::detail::bind(load_expr, where);
  index_t const rows = load.input.rows, cols = load.input.cols;
  auto const store = rowfuse::detail::bind(store_expr, where, rows, cols);
  std::vector<double> values(static_cast<std::size_t>(rows * cols));
  std::vector<double> x(static_cast<std::size_t>(cols)), y(static_cast<std::size_t>(cols));
  store_context<double> store_ctx{cols, 0.0};
  for (index_t r = 0; r < rows; ++r) {
    load_row(load, r, x);
    row_op(r, x, y);
    store_row(store, r, y, store_ctx, values);
  }
  store_amax(store, store_ctx);
  return values;
}

/// softmax and log-softmax of one row. A row whose elements are all -inf (fully masked) gives
/// zeros (log: -inf), never NaN; a NaN anywhere makes the whole row NaN. log(sum) is taken as
/// log1p of the sum less one of the max's terms exp(0) = 1: where the others add up to less
/// than 2^-53, log(sum) would round to 0 even in double, and the top output -log(sum) with it.
inline void softmax_row(std::vector<double> const& x, std::vector<double>& y, bool log) {
  double m = -std::numeric_limits<double>::infinity();
  for (double v : x)
    if (v > m)
      m = v;
  double const shift = std::isinf(m) && m < 0 ? 0.0 : m; // fully masked: keep exp(-inf) = 0
  double sum = 0.0, below = 0.0; // below: the terms of the elements under the max
  std::size_t at_max = 0;
  for (double v : x) {
    double const term = std::exp(v - shift);
    sum += term;
    if (v == m)
      ++at_max;
    else
      below += term;
  }
  // A NaN element is never == m and makes below NaN; a +inf max makes sum NaN (inf - inf).
  double const log_sum = std::isnan(sum) ? sum : std::log1p(double(at_max) - 1.0 + below);
  for (std::size_t c = 0; c < x.size(); ++c) {
    if (sum == 0.0)
      y[c] = log ? -std::numeric_limits<double>::infinity() : 0.0;
    else
      y[c] = log ? x[c] - shift - log_sum : std::exp(x[c] - shift) / sum;
  }
}

} // namespace detail

template <class L, class S> std::vector<double> softmax(L const& load, S const& store) {
  return detail::evaluate("rf::softmax", load, store, [](index_t, auto const& x, auto& y) {
    detail::softmax_row(x, y, false);
  });
}

template <class L, class S> std::vector<double> log_softmax(L const& load, S const& store) {
  return detail::evaluate("rf::log_softmax", load, store,
                          [](index_t, auto const& x, auto& y) { detail::softmax_row(x, y, true); });
}

/// y = (x - mean) * rstd * gamma + beta with rstd = 1 / sqrt(var + eps), var the biased
/// (population) variance, both in double by two passes. The mean is the first element plus the
/// mean of the differences from it, so a constant row (whatever its load chain made of it) has
/// exactly its value as mean and gives exactly beta, and rows far from zero keep the digits of
/// their spread.
template <class L, class S, class Affine = no_affine_t>
std::vector<double> layernorm(L const& load, S const& store, Affine const& affine, float eps,
                              row_stats stats = {}) {
  char const* where = "rf::layernorm";
  rowfuse::detail::check_eps(where, eps);
  index_t const cols = load.input.cols;
  auto const bound = [&] {
    if constexpr (std::is_same_v<Affine, no_affine_t>)
      return affine;
    else
      return affine.bind(where, cols);
  }();
  return detail::evaluate(where, load, store, [&](index_t r, auto const& x, auto& y) {
    double const n = double(x.size());
    double const shift = x.empty() ? 0.0 : x[0];
    double offset = 0.0;
    for (double v : x)
      offset += v - shift;
    double const mean = shift + offset / n;
    double var = 0.0;
    for (double v : x)
      var += (v - mean) * (v - mean);
    var /= n;
    double const rstd = 1.0 / std::sqrt(var + double(eps));
    if (stats.mean)
      stats.mean[r] = float(mean);
    if (stats.rstd)
      stats.rstd[r] = float(rstd);
    for (std::size_t c = 0; c < x.size(); ++c) {
      double v = (x[c] - mean) * rstd;
      if constexpr (!std::is_same_v<Affine, no_affine_t>) {
        double const g = detail::gamma_at(bound.gamma, index_t(c));
        v *= bound.zero_centered ? 1.0 + g : g;
        if (bound.beta.data)
          v += rowfuse::detail::widen<double>(bound.beta.data[c]);
      }
      y[c] = v;
    }
  });
}

/// y = x * rstd * gamma (or * (1 + gamma) for zero_centered_gamma) with
/// rstd = 1 / sqrt(mean(x^2) + eps).
template <class L, class S, class Affine = no_affine_t>
std::vector<double> rmsnorm(L const& load, S const& store, Affine const& affine, float eps,
                            float* rstd_out = nullptr) {
  char const* where = "rf::rmsnorm";
  rowfuse::detail::check_eps(where, eps);
  index_t const cols = load.input.cols;
  auto const bound = [&] {
    if constexpr (std::is_same_v<Affine, no_affine_t>)
      return affine;
    else
      return affine.bind(where, cols);
  }();
  return detail::evaluate(where, load, store, [&](index_t r, auto const& x, auto& y) {
    double mean_square = 0.0;
    for (double v : x)
      mean_square += v * v;
    mean_square /= double(x.size());
    double const rstd = 1.0 / std::sqrt(mean_square + double(eps));
    if (rstd_out)
      rstd_out[r] = float(rstd);
    for (std::size_t c = 0; c < x.size(); ++c) {
      double v = x[c] * rstd;
      if constexpr (!std::is_same_v<Affine, no_affine_t>) {
        double const g = detail::gamma_at(bound.gamma, index_t(c));
        v *= bound.zero_centered ? 1.0 + g : g;
      }
      y[c] = v;
    }
  });
}

} // namespace rowfuse::reference
