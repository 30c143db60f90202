// The unfused backward baselines' arithmetic (the functors of unfused_kit.cuh that their Thrust
// and CUB steps run), run on the host over strided fp32 tensors and held to the double-precision
// host reference (include/rowfuse/reference_backward.hpp). The fused-against-unfused cross-check
// on the GPU then compares two implementations each checked against the same reference; a
// disagreement points at the fused side or at the Thrust/CUB plumbing, not at these formulas.
//
// Tolerances: the functors compute in fp32 (unit roundoff u = 2^-24). A recursive sum of n terms
// is within n u sum|t| of the exact sum (the standard bound), so each tolerance below is that
// bound for the row or column sums involved, propagated through the formula, plus a few u of
// the result for the final products: worst-case bounds, far above the typical error, and still
// far below what a wrong term, index or sign would give.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include <rowfuse/reference.hpp>
#include <rowfuse/reference_backward.hpp>

#include "unfused_kit.cuh"

namespace rf = rowfuse;
namespace kit = bench::unfused::kit;

namespace {

constexpr double u = 0x1p-24;

std::vector<float> uniform(std::size_t n, unsigned seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v)
    x = dist(rng);
  return v;
}

/// The shapes: one row and many, one column and odd widths; rows ld = cols + 3 apart.
struct shape {
  long rows, cols;
  long ld() const { return cols + 3; }
};
shape const shapes[] = {{1, 1}, {3, 5}, {7, 33}, {40, 300}, {5, 1}};

} // namespace

TEST_CASE("unfused softmax and log-softmax backward (product, softmax_gradient) match the "
          "reference") {
  for (shape s : shapes) {
    CAPTURE(s.rows);
    CAPTURE(s.cols);
    long const ld = s.ld();
    auto const y = uniform(std::size_t(s.rows * ld), unsigned(s.rows * 100 + s.cols), 0.0f, 1.0f);
    auto const dy = uniform(y.size(), unsigned(s.rows + s.cols), -4.0f, 4.0f);
    for (bool log : {false, true})
      for (float scale : {1.0f, 0.125f}) {
        CAPTURE(log);
        std::vector<float> sum(static_cast<std::size_t>(s.rows)), dx(y.size());
        std::vector<double> sum_abs(static_cast<std::size_t>(s.rows));
        kit::product<float> const term{y.data(), ld, dy.data(), ld, s.cols};
        for (long r = 0; r < s.rows; ++r)
          for (long c = 0; c < s.cols; ++c) {
            float const t = log ? dy[std::size_t(r * ld + c)] : term(r * s.cols + c);
            sum[std::size_t(r)] += t;
            sum_abs[std::size_t(r)] += std::abs(double(t));
          }
        for (long k = 0; k < s.rows * s.cols; ++k)
          kit::softmax_gradient<float>{y.data(), ld,    dy.data(), ld, sum.data(),
                                       log,      scale, dx.data(), ld, s.cols}(k);
        std::vector<float> out(std::size_t(s.rows * s.cols));
        auto const load_y = rf::load(y.data(), s.rows, s.cols, ld);
        auto const load_dy = rf::load(dy.data(), s.rows, s.cols, ld);
        auto const store = rf::store(out.data()) | rf::scale(scale);
        std::vector<double> const want =
            log ? rf::reference::log_softmax_backward(load_y, load_dy, store)
                : rf::reference::softmax_backward(load_y, load_dy, store);
        for (long r = 0; r < s.rows; ++r)
          for (long c = 0; c < s.cols; ++c) {
            double const yv = y[std::size_t(r * ld + c)], d = dy[std::size_t(r * ld + c)];
            // The sum's n u sum|t|, weighted by y (softmax) or exp(y) (log-softmax), and 4 u of
            // each term of dx.
            double const weight = log ? std::exp(yv) : yv;
            double const sum_error = double(s.cols) * u * sum_abs[std::size_t(r)];
            double const terms =
                std::abs(d) * (log ? 1 : yv) + weight * std::abs(sum[std::size_t(r)]);
            double const tol = scale * (weight * sum_error + 4 * u * terms) + 1e-30;
            REQUIRE(std::abs(dx[std::size_t(r * ld + c)] - want[std::size_t(r * s.cols + c)]) <=
                    tol);
          }
      }
  }
}

TEST_CASE("unfused layernorm and rmsnorm backward (norm_term, norm_gradient, column_partial, "
          "column_total, statistics_of) match the reference") {
  float const eps = 1e-5f;
  for (shape s : shapes) {
    CAPTURE(s.rows);
    CAPTURE(s.cols);
    long const ld = s.ld(), rows = s.rows, cols = s.cols;
    auto const x = uniform(std::size_t(rows * ld), unsigned(rows * 10 + cols), -4.0f, 4.0f);
    auto const dy = uniform(x.size(), unsigned(rows * 20 + cols), -4.0f, 4.0f);
    auto const gamma = uniform(std::size_t(cols), 7, 0.5f, 1.5f);
    auto const beta = uniform(std::size_t(cols), 8, -0.5f, 0.5f);
    for (bool centered : {true, false}) {
      CAPTURE(centered);
      // The saved statistics by statistics_of from sums made in double and rounded to fp32 (the
      // CUB sums' stand-in), against the forward reference's.
      std::vector<float> row_sum(static_cast<std::size_t>(rows)),
          row_m2(static_cast<std::size_t>(rows));
      for (long r = 0; r < rows; ++r) {
        double sum = 0, m2 = 0;
        for (long c = 0; c < cols; ++c)
          sum += x[std::size_t(r * ld + c)];
        for (long c = 0; c < cols; ++c) {
          double const v = x[std::size_t(r * ld + c)] - (centered ? sum / double(cols) : 0.0);
          m2 += v * v;
        }
        row_sum[std::size_t(r)] = float(sum), row_m2[std::size_t(r)] = float(m2);
      }
      std::vector<float> mean(static_cast<std::size_t>(rows)), rstd(static_cast<std::size_t>(rows));
      std::vector<float> ref_mean(static_cast<std::size_t>(rows)),
          ref_rstd(static_cast<std::size_t>(rows));
      for (long r = 0; r < rows; ++r)
        kit::statistics_of{centered ? row_sum.data() : nullptr, row_m2.data(), eps,
                           centered ? mean.data() : nullptr,    rstd.data(),   cols}(r);
      std::vector<float> y(std::size_t(rows * cols));
      auto const load_x = rf::load(x.data(), rows, cols, ld);
      if (centered)
        rf::reference::layernorm(load_x, rf::store(y.data()), rf::no_affine, eps,
                                 rf::row_stats{ref_mean.data(), ref_rstd.data()});
      else
        rf::reference::rmsnorm(load_x, rf::store(y.data()), rf::no_affine, eps, ref_rstd.data());
      for (long r = 0; r < rows; ++r) {
        // fp32 rounding of the sums, a division, rsqrtf (2 ulps): a few u.
        if (centered)
          REQUIRE(std::abs(mean[std::size_t(r)] - ref_mean[std::size_t(r)]) <=
                  4 * u * (std::abs(ref_mean[std::size_t(r)]) + 4));
        REQUIRE(std::abs(rstd[std::size_t(r)] - ref_rstd[std::size_t(r)]) <=
                8 * u * ref_rstd[std::size_t(r)]);
      }

      // dx from the row sums of g and g * x_hat, with the reference's own statistics.
      float* const m = centered ? ref_mean.data() : nullptr;
      float* const sd = ref_rstd.data();
      std::vector<float> sum_g(static_cast<std::size_t>(rows)),
          sum_g_x_hat(static_cast<std::size_t>(rows)), dx(x.size());
      std::vector<double> abs_g(static_cast<std::size_t>(rows)),
          abs_g_x_hat(static_cast<std::size_t>(rows));
      kit::norm_term<float, false> const g_term{x.data(),     ld, dy.data(), ld,
                                                gamma.data(), m,  sd,        cols};
      kit::norm_term<float, true> const g_x_hat_term{x.data(),     ld, dy.data(), ld,
                                                     gamma.data(), m,  sd,        cols};
      for (long r = 0; r < rows; ++r)
        for (long c = 0; c < cols; ++c) {
          float const a = g_term(r * cols + c), b = g_x_hat_term(r * cols + c);
          sum_g[std::size_t(r)] += a, sum_g_x_hat[std::size_t(r)] += b;
          abs_g[std::size_t(r)] += std::abs(a), abs_g_x_hat[std::size_t(r)] += std::abs(b);
        }
      for (long k = 0; k < rows * cols; ++k)
        kit::norm_gradient<float>{
            x.data(),           ld,        dy.data(), ld,
            gamma.data(),       m,         sd,        centered ? sum_g.data() : nullptr,
            sum_g_x_hat.data(), dx.data(), ld,        cols}(k);
      // dgamma and dbeta by chunks of rows and their sum, chunked as column_grads does with a
      // budget of 4 * cols partials (several chunks, the last one short or empty).
      long const chunks = std::max(1L, std::min(rows, 4L));
      long const rows_per_chunk = (rows + chunks - 1) / chunks;
      std::vector<float> gamma_part(std::size_t(chunks * cols)), beta_part(gamma_part.size());
      std::vector<float> dgamma(static_cast<std::size_t>(cols)),
          dbeta(static_cast<std::size_t>(cols));
      for (long k = 0; k < chunks * cols; ++k)
        kit::column_partial<float>{x.data(), ld,   dy.data(),         ld,
                                   m,        sd,   gamma_part.data(), beta_part.data(),
                                   rows,     cols, rows_per_chunk}(k);
      for (long c = 0; c < cols; ++c) {
        kit::column_total{gamma_part.data(), dgamma.data(), chunks, cols}(c);
        kit::column_total{beta_part.data(), dbeta.data(), chunks, cols}(c);
      }

      std::vector<float> out(std::size_t(rows * cols)), ref_dgamma(static_cast<std::size_t>(cols)),
          ref_dbeta(static_cast<std::size_t>(cols));
      auto const load_dy = rf::load(dy.data(), rows, cols, ld);
      rf::reference::norm_gradients const want =
          centered
              ? rf::reference::layernorm_backward(
                    load_x, load_dy, rf::store(out.data()), rf::affine(gamma.data(), beta.data()),
                    rf::row_stats{ref_mean.data(), ref_rstd.data()},
                    rf::affine_grads{ref_dgamma.data(), ref_dbeta.data()})
              : rf::reference::rmsnorm_backward(load_x, load_dy, rf::store(out.data()),
                                                rf::affine(gamma.data()), ref_rstd.data(),
                                                rf::affine_grads{ref_dgamma.data()});
      for (long r = 0; r < rows; ++r) {
        double const s = sd[std::size_t(r)], n = double(cols);
        double x_hat_max = 0, g_max = 0;
        for (long c = 0; c < cols; ++c) {
          double const xv = x[std::size_t(r * ld + c)];
          x_hat_max = std::max(x_hat_max, std::abs((xv - (m ? m[std::size_t(r)] : 0.0f)) * s));
          g_max = std::max(g_max,
                           std::abs(double(gamma[std::size_t(c)]) * dy[std::size_t(r * ld + c)]));
        }
        // The two sums' n u sum|t| (over n), x_hat's own 3 u, and 8 u of dx's terms.
        double const mean_g_error = u * abs_g[std::size_t(r)];
        double const mean_g_x_hat_error = (n + 3) * u * abs_g_x_hat[std::size_t(r)] / n;
        double const terms =
            g_max + abs_g[std::size_t(r)] / n + x_hat_max * abs_g_x_hat[std::size_t(r)] / n;
        double const tol =
            s * (mean_g_error + x_hat_max * mean_g_x_hat_error +
                 3 * u * x_hat_max * abs_g_x_hat[std::size_t(r)] / n + 8 * u * terms);
        for (long c = 0; c < cols; ++c)
          REQUIRE(std::abs(dx[std::size_t(r * ld + c)] - want.dx[std::size_t(r * cols + c)]) <=
                  tol);
      }
      for (long c = 0; c < cols; ++c) {
        double abs_dy_x_hat = 0, abs_dy = 0;
        for (long r = 0; r < rows; ++r) {
          double const d = dy[std::size_t(r * ld + c)];
          double const x_hat =
              (x[std::size_t(r * ld + c)] - (m ? m[std::size_t(r)] : 0.0f)) * sd[std::size_t(r)];
          abs_dy_x_hat += std::abs(d * x_hat), abs_dy += std::abs(d);
        }
        // rows u sum|t| for the chunked sums, 4 u for x_hat and the products.
        REQUIRE(std::abs(dgamma[std::size_t(c)] - want.dgamma[std::size_t(c)]) <=
                double(rows + 4) * u * abs_dy_x_hat + 1e-30);
        if (centered)
          REQUIRE(std::abs(dbeta[std::size_t(c)] - want.dbeta[std::size_t(c)]) <=
                  double(rows + 1) * u * abs_dy + 1e-30);
      }
    }
  }
}
