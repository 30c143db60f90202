// Shared by the backward GPU tests: a double-precision reference of the four gradients written as
// plain loops over the values (independent of the kernels and of rowfuse's ops), the values of a
// load expression on the host, and the tolerances.
//
// Tolerances, per element of dx against the exact value e:
//   fp32 dx:   |dx - e| <= 1e-6 |e| + A_i,   16-bit dx: |dx - e| <= ulp_T(e) + A_i,
// A_i bounding what fp32 arithmetic can lose on the terms dx_i is made of (u = 2^-24):
//   softmax:     dx_i = y_i (dy_i - s):  8 u |y_i| (|dy_i| + |s|) for the product and difference,
//                plus 64 u |y_i| sum_j |dy_j y_j| for s, a sum of up to 2^18 terms added in
//                chains of at most ~64 (a streaming thread's packs) and trees across threads;
//   log-softmax: dx_i = dy_i - exp(y_i) s: 8 u (|dy_i| + exp(y_i) |s|) plus
//                64 u exp(y_i) sum_j |dy_j| (the same sum bound), expf's 2 ulp inside the 8 u;
//   norms:       dx_i = g_i - mean(g) - x_hat_i mean(g x_hat), g = rstd gamma dy:
//                8 u (|g_i| + |x_hat_i| |mean(g x_hat)|) for the element's own roundings
//                (x_hat's subtraction and products, g's two products, the fma), plus
//                64 u (mean|g| + |x_hat_i| mean|g x_hat|) for the two sums.
// The 64 is the worst case of the chains, not the typical error (~sqrt of it): a wrong formula,
// a lost term or a row mixed with another is off by far more.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "support.cuh"

namespace bwd_test {

inline constexpr double u = 0x1p-24;

/// The values rows x cols of a load expression (any chain) in double, evaluated on the host with
/// host pointers: what the kernel's chain computes in fp32 (a dropout replayed on dy included).
template <class Load> std::vector<double> values(Load const& expr) {
  auto const bound = rf::detail::bind(expr, "test");
  long const rows = long(bound.input.rows), cols = long(bound.input.cols);
  std::vector<double> out(std::size_t(rows * cols));
  rf::load_context context{false, cols};
  for (long r = 0; r < rows; ++r) {
    for (long c = 0; c < cols; ++c) {
      double v[1];
      bound.template load<1>(r, c, v, context);
      out[std::size_t(r * cols + c)] = v[0];
    }
  }
  return out;
}

/// The exact gradient and the bound A_i of every element (see the top of the file).
struct gradient {
  std::vector<double> exact;
  std::vector<double> slack;
};

/// softmax (Log false) or log-softmax backward of row-major [rows, cols] y and dy. Masked
/// positions (y = 0, resp. -inf) give 0 and leave their dy out of the sum.
inline gradient softmax_backward(bool log, std::vector<double> const& y,
                                 std::vector<double> const& dy, long rows, long cols) {
  gradient out{std::vector<double>(y.size()), std::vector<double>(y.size())};
  for (long r = 0; r < rows; ++r) {
    double s = 0.0, magnitude = 0.0;
    auto const at = [&](long c) { return std::size_t(r * cols + c); };
    auto const masked = [&](long c) {
      return log ? y[at(c)] == -std::numeric_limits<double>::infinity() : y[at(c)] == 0.0;
    };
    for (long c = 0; c < cols; ++c) {
      if (masked(c))
        continue;
      double const term = log ? dy[at(c)] : dy[at(c)] * y[at(c)];
      s += term;
      magnitude += std::fabs(term);
    }
    for (long c = 0; c < cols; ++c) {
      if (masked(c)) {
        out.exact[at(c)] = 0.0;
        out.slack[at(c)] = 0.0;
      } else if (log) {
        double const p = std::exp(y[at(c)]);
        out.exact[at(c)] = dy[at(c)] - p * s;
        out.slack[at(c)] =
            8 * u * (std::fabs(dy[at(c)]) + p * std::fabs(s)) + 64 * u * p * magnitude;
      } else {
        double const p = y[at(c)];
        out.exact[at(c)] = p * (dy[at(c)] - s);
        out.slack[at(c)] = 8 * u * std::fabs(p) * (std::fabs(dy[at(c)]) + std::fabs(s)) +
                           64 * u * std::fabs(p) * magnitude;
      }
    }
  }
  return out;
}

/// layernorm (centered) or rmsnorm backward: x, dy row-major [rows, cols], gamma [cols] (empty:
/// no affine; zero_centered: 1 + gamma), the saved fp32 mean (layernorm) and rstd per row.
/// Also dgamma = sum_rows dy x_hat and dbeta = sum_rows dy, with their bounds.
struct norm_gradient {
  gradient dx;
  std::vector<double> dgamma, dbeta, dgamma_slack, dbeta_slack;
};

inline norm_gradient norm_backward(bool centered, std::vector<double> const& x,
                                   std::vector<double> const& dy, std::vector<double> const& gamma,
                                   bool zero_centered, std::vector<float> const& mean,
                                   std::vector<float> const& rstd, long rows, long cols) {
  norm_gradient out;
  out.dx.exact.resize(x.size());
  out.dx.slack.resize(x.size());
  out.dgamma.assign(std::size_t(cols), 0.0);
  out.dbeta.assign(std::size_t(cols), 0.0);
  std::vector<double> dgamma_magnitude(static_cast<std::size_t>(cols)),
      dbeta_magnitude(static_cast<std::size_t>(cols));
  std::vector<double> x_hat(static_cast<std::size_t>(cols)), g(static_cast<std::size_t>(cols));
  for (long r = 0; r < rows; ++r) {
    double const m = centered ? double(mean[std::size_t(r)]) : 0.0;
    double const rs = rstd[std::size_t(r)];
    double sum_g = 0.0, sum_gx = 0.0, abs_g = 0.0, abs_gx = 0.0;
    for (long c = 0; c < cols; ++c) {
      std::size_t const i = std::size_t(r * cols + c);
      double const gm = gamma.empty()   ? 1.0
                        : zero_centered ? 1.0 + gamma[std::size_t(c)]
                                        : gamma[std::size_t(c)];
      x_hat[std::size_t(c)] = (x[i] - m) * rs;
      g[std::size_t(c)] = rs * gm * dy[i];
      sum_g += g[std::size_t(c)];
      sum_gx += g[std::size_t(c)] * x_hat[std::size_t(c)];
      abs_g += std::fabs(g[std::size_t(c)]);
      abs_gx += std::fabs(g[std::size_t(c)] * x_hat[std::size_t(c)]);
      out.dgamma[std::size_t(c)] += dy[i] * x_hat[std::size_t(c)];
      out.dbeta[std::size_t(c)] += dy[i];
      dgamma_magnitude[std::size_t(c)] += std::fabs(dy[i] * x_hat[std::size_t(c)]);
      dbeta_magnitude[std::size_t(c)] += std::fabs(dy[i]);
    }
    double const mean_g = centered ? sum_g / double(cols) : 0.0;
    double const mean_gx = sum_gx / double(cols);
    for (long c = 0; c < cols; ++c) {
      std::size_t const i = std::size_t(r * cols + c);
      double const xh = x_hat[std::size_t(c)];
      out.dx.exact[i] = g[std::size_t(c)] - mean_g - xh * mean_gx;
      out.dx.slack[i] = 8 * u * (std::fabs(g[std::size_t(c)]) + std::fabs(xh * mean_gx)) +
                        64 * u * (abs_g / double(cols) + std::fabs(xh) * abs_gx / double(cols));
    }
  }
  // Chunks of R rows summed in order, then the column sum: in each slice of chunks, each warp's
  // chunks in 8 running sums (ceil(chunks / (warps x 8)) additions each, the block's warps chosen
  // from the slice), a tree of 3 over them and a tree of log2(warps) over the warps; where there
  // are several slices, the same again over the slices' sums. Each term passes through at most
  // that many roundings, plus x_hat's own (3 u).
  long const chunk = 1L << rf::op::norm_chunk_rows_log2(rows, cols);
  long const chunks = (rows + chunk - 1) / chunk;
  long const slices = rf::detail::column_sum_slices(chunks);
  auto const stage = [](long summed) {
    double const warps = rf::detail::column_sum_warps(summed);
    return std::ceil(double(summed) / (warps * rf::engine::column_sum_chains)) + 3.0 +
           std::log2(warps);
  };
  double const chain = double(chunk) +
                       stage(std::min(chunks, rf::detail::column_sum_slice(chunks))) +
                       (slices > 1 ? stage(slices) : 0.0) + 3.0;
  out.dgamma_slack.resize(std::size_t(cols));
  out.dbeta_slack.resize(std::size_t(cols));
  for (long c = 0; c < cols; ++c) {
    out.dgamma_slack[std::size_t(c)] = chain * u * dgamma_magnitude[std::size_t(c)];
    out.dbeta_slack[std::size_t(c)] = chain * u * dbeta_magnitude[std::size_t(c)];
  }
  return out;
}

/// Every element of a [rows, cols] dx (row stride ld, first element at offset) against the
/// exact values: 1e-6 relative for fp32, 1 ulp of T otherwise, plus the element's slack.
template <class T>
test::mismatch_report compare(std::vector<T> const& got, gradient const& want, long rows, long cols,
                              long ld, long offset) {
  test::mismatch_report r;
  for (long i = 0; i < rows; ++i) {
    for (long j = 0; j < cols; ++j) {
      T const raw = got[std::size_t(offset + i * ld + j)];
      double const g = rf::detail::widen<double>(raw);
      std::size_t const k = std::size_t(i * cols + j);
      double const e = want.exact[k];
      double const tolerance =
          (std::is_same_v<T, float> ? 1e-6 * std::fabs(e) : test::ulp<T>(e)) + want.slack[k];
      ++r.checked;
      bool const ok = !test::is_poison(raw) && (std::isnan(e)   ? std::isnan(g)
                                                : std::isinf(e) ? g == e
                                                                : std::fabs(g - e) <= tolerance);
      if (!ok && r.bad++ == 0) {
        std::ostringstream s;
        s.precision(10);
        s << "row " << i << " col " << j << ": got " << g << ", exact " << e << ", tolerance "
          << tolerance;
        r.first = s.str();
      }
    }
  }
  return r;
}

/// dgamma or dbeta (fp32 [cols], one poisoned element past it that must stay so) against the
/// reference sums within their slack plus 1e-6 relative.
inline test::mismatch_report compare_sums(std::vector<float> const& got,
                                          std::vector<double> const& exact,
                                          std::vector<double> const& slack, long cols) {
  test::mismatch_report r;
  for (long c = 0; c <= cols; ++c) {
    ++r.checked;
    bool ok;
    double const g = got[std::size_t(c)];
    if (c == cols)
      ok = test::is_poison(got[std::size_t(c)]);
    else
      ok = !test::is_poison(got[std::size_t(c)]) &&
           std::fabs(g - exact[std::size_t(c)]) <=
               1e-6 * std::fabs(exact[std::size_t(c)]) + slack[std::size_t(c)];
    if (!ok && r.bad++ == 0) {
      std::ostringstream s;
      s.precision(10);
      s << "col " << c << ": got " << g << ", exact " << (c < cols ? exact[std::size_t(c)] : 0.0);
      r.first = s.str();
    }
  }
  return r;
}

} // namespace bwd_test
