// The host reference ops (rf::reference::softmax, log_softmax, layernorm, rmsnorm) against
// hand-computed cases and against naive formulas written here in long double, on random inputs
// of several shapes (cols = 1, odd cols, ld > cols), with fp32 / fp16 / bf16 inputs and outputs.
//
// Tolerances: the reference returns doubles computed in double (two-pass statistics, exp/log of
// double arguments); the naive formulas here use long double. Their difference is a few ulps of
// double per operation, times at most ~1000 terms in a row sum: 1e-12 relative (2^-40) leaves
// room for that and is still 10^5 times tighter than fp32, so a float-precision shortcut fails.
// Outputs are checked against the returned values: within half an ulp of the output type.
// Statistics saved as fp32 (mean, rstd) are within half an fp32 ulp (2^-24 relative).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <rowfuse/expr.hpp>
#include <rowfuse/op/affine.hpp>
#include <rowfuse/reference.hpp>

namespace rf = rowfuse;
using rf::index_t;
using rf::detail::widen;

namespace {

double const inf = std::numeric_limits<double>::infinity();
using real = long double;

std::vector<float> random_floats(std::size_t n, unsigned seed, float lo = -4.0f, float hi = 4.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(lo, hi);
  std::vector<float> v(n);
  for (float& x : v)
    x = uniform(rng);
  return v;
}

template <class T> T to(float x) {
  if constexpr (std::is_same_v<T, float>)
    return x;
  else if constexpr (std::is_same_v<T, __half>)
    return __float2half_rn(x);
  else
    return __float2bfloat16_rn(x);
}

/// Storage of `rows` rows of `ld` elements; the padding past `cols` holds `poison`.
template <class T>
std::vector<T> strided(std::vector<float> const& dense, index_t rows, index_t cols, index_t ld) {
  std::vector<T> out(std::size_t(rows * ld), to<T>(std::nanf("")));
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c)
      out[std::size_t(r * ld + c)] = to<T>(dense[std::size_t(r * cols + c)]);
  return out;
}

/// An output buffer filled with 0x7F bytes (a NaN in fp16 and bf16, 3.4e38 in fp32).
template <class T> std::vector<T> poisoned(std::size_t n) {
  std::vector<T> v(n);
  std::memset(static_cast<void*>(v.data()), 0x7F, n * sizeof(T));
  return v;
}
template <class T> bool is_poison(T const& v) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  return std::all_of(b, b + sizeof(T), [](unsigned char c) { return c == 0x7F; });
}

/// The row x of an input, widened exactly.
template <class T>
std::vector<real> row_of(std::vector<T> const& in, index_t r, index_t cols, index_t ld) {
  std::vector<real> x(static_cast<std::size_t>(cols));
  for (index_t c = 0; c < cols; ++c)
    x[std::size_t(c)] = widen<double>(in[std::size_t(r * ld + c)]);
  return x;
}

// ---- the naive formulas ----------------------------------------------------------------------

std::vector<real> naive_softmax(std::vector<real> const& x) {
  real m = x[0];
  for (real v : x)
    m = std::max(m, v);
  real s = 0;
  for (real v : x)
    s += std::exp(v - m);
  std::vector<real> y;
  for (real v : x)
    y.push_back(std::exp(v - m) / s);
  return y;
}
std::vector<real> naive_log_softmax(std::vector<real> const& x) {
  real m = x[0];
  for (real v : x)
    m = std::max(m, v);
  real s = 0;
  for (real v : x)
    s += std::exp(v - m);
  std::vector<real> y;
  for (real v : x)
    y.push_back(v - m - std::log(s));
  return y;
}
real mean_of(std::vector<real> const& x) {
  real s = 0;
  for (real v : x)
    s += v;
  return s / real(x.size());
}
real variance_of(std::vector<real> const& x) { // population variance
  real const m = mean_of(x);
  real s = 0;
  for (real v : x)
    s += (v - m) * (v - m);
  return s / real(x.size());
}
real mean_square_of(std::vector<real> const& x) {
  real s = 0;
  for (real v : x)
    s += v * v;
  return s / real(x.size());
}

/// |a - b| within a relative tolerance plus an absolute floor.
bool close(double a, real b, double rel, double abs_floor) {
  return std::abs(real(a) - b) <= rel * std::abs(b) + abs_floor;
}

/// Whether `written` is `exact` rounded to T: within half an ulp of T at exact's magnitude.
template <class T> bool within_half_ulp(double exact, T const& written) {
  double const w = widen<double>(written);
  if (std::isnan(exact))
    return std::isnan(w);
  if (std::isinf(exact))
    return w == exact;
  if (exact == 0)
    return w == 0;
  int const min_exponent = std::is_same_v<T, __half> ? -14 : -126;
  int const e = std::max(std::ilogb(exact), min_exponent);
  double const ulp = std::ldexp(1.0, e - rf::element_traits<T>::mantissa_bits);
  return std::abs(w - exact) <= ulp / 2;
}

struct shape {
  index_t rows, cols, ld_in, ld_out;
};
shape const shapes[] = {{1, 1, 1, 1},    {3, 1, 2, 3},       {4, 7, 7, 9},         {5, 13, 16, 13},
                        {2, 64, 70, 64}, {3, 257, 257, 260}, {6, 1000, 1003, 1000}};

/// Checks the output buffer: every element of the view written and within half an ulp of the
/// returned value, every padding element untouched.
template <class T>
void check_written(std::vector<T> const& out, std::vector<double> const& values, shape s) {
  REQUIRE(values.size() == std::size_t(s.rows * s.cols));
  int wrong = 0;
  for (index_t r = 0; r < s.rows; ++r)
    for (index_t c = 0; c < s.ld_out; ++c) {
      T const& w = out[std::size_t(r * s.ld_out + c)];
      if (c >= s.cols) {
        REQUIRE(is_poison(w));
        continue;
      }
      double const v = values[std::size_t(r * s.cols + c)];
      if (!within_half_ulp(v, w)) {
        if (wrong++ == 0) {
          CAPTURE(r);
          CAPTURE(c);
          CAPTURE(v);
          CAPTURE(widen<double>(w));
          FAIL_CHECK("the written output is not the returned value rounded to the output type");
        }
      }
    }
  CHECK(wrong == 0);
}

} // namespace

// ---- softmax and log_softmax ---------------------------------------------------------------

TEST_CASE("softmax and log_softmax: hand-computed rows") {
  float const x[5] = {0, 1, 1, 2, 3};
  float y[5];
  // Row {0, 1}: 1 / (1 + e), e / (1 + e). Row {1, 2, 3}: e^k / (e + e^2 + e^3).
  auto const p = rf::reference::softmax(rf::load(x, 1, 2), rf::store(y));
  CHECK(p[0] == doctest::Approx(0.2689414213699951).epsilon(1e-14));
  CHECK(p[1] == doctest::Approx(0.7310585786300049).epsilon(1e-14));
  auto const q = rf::reference::softmax(rf::load(x + 2, 1, 3), rf::store(y));
  CHECK(q[0] == doctest::Approx(0.09003057317038046).epsilon(1e-14));
  CHECK(q[1] == doctest::Approx(0.24472847105479767).epsilon(1e-14));
  CHECK(q[2] == doctest::Approx(0.6652409557748219).epsilon(1e-14));
  auto const lp = rf::reference::log_softmax(rf::load(x, 1, 2), rf::store(y));
  CHECK(lp[0] == doctest::Approx(-1.3132616875182228).epsilon(1e-14));
  CHECK(lp[1] == doctest::Approx(-0.3132616875182228).epsilon(1e-14));
  auto const lq = rf::reference::log_softmax(rf::load(x + 2, 1, 3), rf::store(y));
  CHECK(lq[0] == doctest::Approx(-2.4076059644443806).epsilon(1e-14));
  CHECK(lq[1] == doctest::Approx(-1.4076059644443806).epsilon(1e-14));
  CHECK(lq[2] == doctest::Approx(-0.4076059644443806).epsilon(1e-14));
  // Equal values: exactly 1 / cols; one column: exactly 1 (log: exactly 0).
  float const same[4] = {3, 3, 3, 3};
  for (double v : rf::reference::softmax(rf::load(same, 1, 4), rf::store(y)))
    CHECK(v == 0.25);
  for (double v : rf::reference::softmax(rf::load(same, 4, 1), rf::store(y)))
    CHECK(v == 1.0);
  for (double v : rf::reference::log_softmax(rf::load(same, 4, 1), rf::store(y)))
    CHECK(v == 0.0);
}

TEST_CASE("softmax and log_softmax match the naive formulas on random rows (fp32, ld > cols)") {
  unsigned seed = 100;
  for (shape s : shapes) {
    CAPTURE(s.rows);
    CAPTURE(s.cols);
    auto const dense = random_floats(std::size_t(s.rows * s.cols), ++seed, -8.0f, 8.0f);
    auto const in = strided<float>(dense, s.rows, s.cols, s.ld_in);
    auto out = poisoned<float>(std::size_t(s.rows * s.ld_out));
    auto const load = rf::load(in.data(), s.rows, s.cols, s.ld_in);
    auto const p = rf::reference::softmax(load, rf::store(out.data(), s.ld_out));
    check_written(out, p, s);
    auto out_log = poisoned<float>(std::size_t(s.rows * s.ld_out));
    auto const lp = rf::reference::log_softmax(load, rf::store(out_log.data(), s.ld_out));
    check_written(out_log, lp, s);
    for (index_t r = 0; r < s.rows; ++r) {
      auto const x = row_of(in, r, s.cols, s.ld_in);
      auto const want = naive_softmax(x);
      auto const want_log = naive_log_softmax(x);
      real sum = 0;
      for (index_t c = 0; c < s.cols; ++c) {
        std::size_t const i = std::size_t(r * s.cols + c);
        // Double evaluation of exp and a sum of <= 1000 terms: 1e-12 relative is ~2^-40.
        REQUIRE(close(p[i], want[std::size_t(c)], 1e-12, 1e-300));
        REQUIRE(close(lp[i], want_log[std::size_t(c)], 1e-12, 1e-13));
        REQUIRE(p[i] >= 0.0);
        REQUIRE(p[i] <= 1.0);
        sum += p[i];
      }
      CHECK(std::abs(sum - 1) < 1e-13);
    }
  }
}

TEST_CASE("softmax is invariant under a shift of the row; log_softmax shifts not at all") {
  index_t const rows = 4, cols = 33;
  auto const x = random_floats(std::size_t(rows * cols), 7);
  std::vector<float> y(x.size());
  auto const base = rf::reference::softmax(rf::load(x.data(), rows, cols), rf::store(y.data()));
  auto const base_log =
      rf::reference::log_softmax(rf::load(x.data(), rows, cols), rf::store(y.data()));
  for (float shift : {100.0f, -1000.0f, 3.5f}) {
    std::vector<float> const b(std::size_t(cols), shift); // x + shift is exact in double
    auto const p = rf::reference::softmax(rf::load(x.data(), rows, cols) | rf::bias(b.data()),
                                          rf::store(y.data()));
    auto const lp = rf::reference::log_softmax(rf::load(x.data(), rows, cols) | rf::bias(b.data()),
                                               rf::store(y.data()));
    for (std::size_t i = 0; i < x.size(); ++i) {
      REQUIRE(close(p[i], base[i], 1e-12, 0));
      REQUIRE(close(lp[i], base_log[i], 1e-12, 1e-12));
    }
  }
  // Large inputs do not overflow: softmax of {1000, 1001} is that of {0, 1}.
  float const big[2] = {1000.0f, 1001.0f};
  float out[2];
  auto const v = rf::reference::softmax(rf::load(big, 1, 2), rf::store(out));
  CHECK(v[0] == doctest::Approx(0.2689414213699951).epsilon(1e-14));
  CHECK(v[1] == doctest::Approx(0.7310585786300049).epsilon(1e-14));
}

TEST_CASE("a fully masked row gives exactly 0 (log_softmax: -inf), never NaN; other rows are "
          "unaffected") {
  index_t const rows = 3, cols = 6;
  auto const x = random_floats(std::size_t(rows * cols), 8);
  bool masked[rows * cols] = {};
  for (index_t c = 0; c < cols; ++c)
    masked[cols + c] = true;   // row 1
  masked[2 * cols + 4] = true; // one element of row 2
  auto out = poisoned<float>(x.size());
  auto const p = rf::reference::softmax(rf::load(x.data(), rows, cols) | rf::mask(masked),
                                        rf::store(out.data()));
  auto const lp = rf::reference::log_softmax(rf::load(x.data(), rows, cols) | rf::mask(masked),
                                             rf::store(out.data()));
  for (index_t c = 0; c < cols; ++c) {
    std::size_t const i = std::size_t(cols + c);
    CHECK(p[i] == 0.0);
    CHECK(lp[i] == -inf);
    CHECK(out[i] == -std::numeric_limits<float>::infinity()); // the log_softmax output
  }
  // Row 2: the masked element is 0 and the others are the softmax of the remaining five.
  std::vector<real> rest;
  for (index_t c = 0; c < cols; ++c)
    if (c != 4)
      rest.push_back(x[std::size_t(2 * cols + c)]);
  auto const want = naive_softmax(rest);
  for (index_t c = 0, k = 0; c < cols; ++c) {
    double const v = p[std::size_t(2 * cols + c)];
    if (c == 4)
      CHECK(v == 0.0);
    else
      CHECK(close(v, want[std::size_t(k++)], 1e-12, 0));
  }
  // Row 0 is plain.
  auto const want0 = naive_softmax(row_of(x, 0, cols, cols));
  for (index_t c = 0; c < cols; ++c)
    CHECK(close(p[std::size_t(c)], want0[std::size_t(c)], 1e-12, 0));
  for (double v : p)
    CHECK_FALSE(std::isnan(v));
  for (double v : lp)
    CHECK_FALSE(std::isnan(v));

  // A causal mask with a negative offset masks whole rows the same way.
  std::vector<float> y(x.size());
  auto const c = rf::reference::softmax(rf::load(x.data(), rows, cols) | rf::causal_mask(3, -1),
                                        rf::store(y.data()));
  for (index_t k = 0; k < cols; ++k)
    CHECK(c[std::size_t(k)] == 0.0);  // row 0: c > -1 everywhere
  CHECK(c[std::size_t(cols)] == 1.0); // row 1: only column 0
  for (float v : y)
    CHECK_FALSE(std::isnan(v));
}

TEST_CASE("a NaN in a row makes that row NaN and no other") {
  index_t const rows = 4, cols = 9;
  auto x = random_floats(std::size_t(rows * cols), 9);
  x[std::size_t(2 * cols + 5)] = std::nanf("");
  for (bool log : {false, true}) {
    std::vector<float> out(x.size());
    auto const v =
        log ? rf::reference::log_softmax(rf::load(x.data(), rows, cols), rf::store(out.data()))
            : rf::reference::softmax(rf::load(x.data(), rows, cols), rf::store(out.data()));
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; ++c) {
        std::size_t const i = std::size_t(r * cols + c);
        CHECK(std::isnan(v[i]) == (r == 2));
        CHECK(std::isnan(out[i]) == (r == 2));
      }
  }
}

// ---- layernorm -----------------------------------------------------------------------------

TEST_CASE("layernorm: hand-computed") {
  float const x[4] = {1, 3, -2, 6};
  float const gamma[2] = {2, 3};
  float const beta[2] = {0.5f, -1};
  float y[4], mean[2], rstd[2];
  float const eps = 1e-5f;
  // Row {1, 3}: mean 2, variance 1. Row {-2, 6}: mean 2, variance 16.
  double const r0 = 1 / std::sqrt(1 + double(eps)), r1 = 1 / std::sqrt(16 + double(eps));
  auto const v = rf::reference::layernorm(rf::load(x, 2, 2), rf::store(y), rf::affine(gamma, beta),
                                          eps, rf::row_stats{mean, rstd});
  CHECK(v[0] == doctest::Approx(-2 * r0 + 0.5).epsilon(1e-15));
  CHECK(v[1] == doctest::Approx(3 * r0 - 1).epsilon(1e-15));
  CHECK(v[2] == doctest::Approx(-4 * 2 * r1 + 0.5).epsilon(1e-15));
  CHECK(v[3] == doctest::Approx(4 * 3 * r1 - 1).epsilon(1e-15));
  CHECK(mean[0] == 2.0f);
  CHECK(mean[1] == 2.0f);
  CHECK(rstd[0] == float(r0));
  CHECK(rstd[1] == float(r1));
  // eps sits inside the square root: with eps = 1 the first row's rstd is 1 / sqrt(2).
  auto const w = rf::reference::layernorm(rf::load(x, 2, 2), rf::store(y), rf::no_affine, 1.0f);
  CHECK(w[0] == doctest::Approx(-1 / std::sqrt(2.0)).epsilon(1e-15));
  CHECK(w[1] == doctest::Approx(1 / std::sqrt(2.0)).epsilon(1e-15));
  // gamma only.
  auto const g = rf::reference::layernorm(rf::load(x, 2, 2), rf::store(y), rf::affine(gamma), eps);
  CHECK(g[0] == doctest::Approx(-2 * r0).epsilon(1e-15));
  CHECK(g[1] == doctest::Approx(3 * r0).epsilon(1e-15));
}

TEST_CASE("layernorm matches the naive formula, with and without affine, saving mean and rstd") {
  unsigned seed = 200;
  float const eps = 1e-5f;
  for (shape s : shapes) {
    CAPTURE(s.rows);
    CAPTURE(s.cols);
    auto const dense = random_floats(std::size_t(s.rows * s.cols), ++seed);
    auto const in = strided<float>(dense, s.rows, s.cols, s.ld_in);
    auto const gamma = random_floats(std::size_t(s.cols), ++seed, 0.5f, 2.0f);
    auto const beta = random_floats(std::size_t(s.cols), ++seed);
    auto const load = rf::load(in.data(), s.rows, s.cols, s.ld_in);
    for (int affine = 0; affine < 3; ++affine) {
      CAPTURE(affine);
      auto out = poisoned<float>(std::size_t(s.rows * s.ld_out));
      auto mean = poisoned<float>(std::size_t(s.rows) + 1);
      auto rstd = poisoned<float>(std::size_t(s.rows) + 1);
      rf::row_stats const stats{mean.data(), rstd.data()};
      auto const store = rf::store(out.data(), s.ld_out);
      std::vector<double> const v =
          affine == 0 ? rf::reference::layernorm(load, store, rf::no_affine, eps, stats)
          : affine == 1
              ? rf::reference::layernorm(load, store, rf::affine(gamma.data()), eps, stats)
              : rf::reference::layernorm(load, store, rf::affine(gamma.data(), beta.data()), eps,
                                         stats);
      check_written(out, v, s);
      CHECK(is_poison(mean[std::size_t(s.rows)])); // one per row, no more
      CHECK(is_poison(rstd[std::size_t(s.rows)]));
      for (index_t r = 0; r < s.rows; ++r) {
        auto const x = row_of(in, r, s.cols, s.ld_in);
        real const m = mean_of(x), rs = 1 / std::sqrt(variance_of(x) + real(eps));
        // Float stats: the rounding of the double statistic, half a float ulp (2^-24 relative),
        // plus the double evaluation's own error (far below).
        CHECK(close(mean[std::size_t(r)], m, 0x1p-24, 1e-12));
        CHECK(close(rstd[std::size_t(r)], rs, 0x1p-24, 0));
        for (index_t c = 0; c < s.cols; ++c) {
          real want = (x[std::size_t(c)] - m) * rs;
          if (affine >= 1)
            want *= gamma[std::size_t(c)];
          if (affine == 2)
            want += beta[std::size_t(c)];
          // Two-pass double statistics of rows of <= 1000 values in [-4, 4]: 1e-12 absolute.
          REQUIRE(close(v[std::size_t(r * s.cols + c)], want, 1e-12, 1e-12));
        }
      }
    }
  }
}

TEST_CASE("layernorm of a constant row gives exactly beta") {
  index_t const rows = 5, cols = 24;
  auto const values = random_floats(std::size_t(rows), 11);
  std::vector<float> x(std::size_t(rows * cols));
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c)
      x[std::size_t(r * cols + c)] = values[std::size_t(r)];
  auto const gamma = random_floats(std::size_t(cols), 12);
  auto const beta = random_floats(std::size_t(cols), 13);
  auto out = poisoned<float>(x.size());
  float mean[rows], rstd[rows];
  // Float inputs sum exactly in double, so the mean is exact and x - mean is exactly 0.
  auto const v = rf::reference::layernorm(rf::load(x.data(), rows, cols), rf::store(out.data()),
                                          rf::affine(gamma.data(), beta.data()), 1e-5f,
                                          rf::row_stats{mean, rstd});
  for (index_t r = 0; r < rows; ++r) {
    CHECK(mean[r] == values[std::size_t(r)]);
    CHECK(rstd[r] == float(1 / std::sqrt(double(1e-5f))));
    for (index_t c = 0; c < cols; ++c) {
      REQUIRE(v[std::size_t(r * cols + c)] == double(beta[std::size_t(c)]));
      REQUIRE(out[std::size_t(r * cols + c)] == beta[std::size_t(c)]);
    }
  }
}

// ---- rmsnorm -------------------------------------------------------------------------------

TEST_CASE("rmsnorm: hand-computed, with gamma and with zero-centred gamma") {
  float const x[2] = {3, 4}; // mean square 12.5
  float const gamma[2] = {2, -0.5f};
  float y[2], rstd[1];
  float const eps = 1e-5f;
  double const r = 1 / std::sqrt(12.5 + double(eps));
  auto const plain =
      rf::reference::rmsnorm(rf::load(x, 1, 2), rf::store(y), rf::no_affine, eps, rstd);
  CHECK(plain[0] == doctest::Approx(3 * r).epsilon(1e-15));
  CHECK(plain[1] == doctest::Approx(4 * r).epsilon(1e-15));
  CHECK(rstd[0] == float(r));
  auto const g = rf::reference::rmsnorm(rf::load(x, 1, 2), rf::store(y), rf::affine(gamma), eps);
  CHECK(g[0] == doctest::Approx(6 * r).epsilon(1e-15));
  CHECK(g[1] == doctest::Approx(-2 * r).epsilon(1e-15));
  auto const z =
      rf::reference::rmsnorm(rf::load(x, 1, 2), rf::store(y), rf::zero_centered_gamma(gamma), eps);
  CHECK(z[0] == doctest::Approx(9 * r).epsilon(1e-15)); // 3 * (1 + 2)
  CHECK(z[1] == doctest::Approx(2 * r).epsilon(1e-15)); // 4 * (1 - 0.5)
  CHECK(rf::zero_centered_gamma(gamma).zero_centered);
  CHECK_FALSE(rf::affine(gamma).zero_centered);
}

TEST_CASE("rmsnorm matches the naive formula; rstd output") {
  unsigned seed = 300;
  float const eps = 1e-6f;
  for (shape s : shapes) {
    CAPTURE(s.rows);
    CAPTURE(s.cols);
    auto const dense = random_floats(std::size_t(s.rows * s.cols), ++seed);
    auto const in = strided<float>(dense, s.rows, s.cols, s.ld_in);
    auto const gamma = random_floats(std::size_t(s.cols), ++seed, -1.0f, 1.0f);
    auto const load = rf::load(in.data(), s.rows, s.cols, s.ld_in);
    for (int affine = 0; affine < 3; ++affine) {
      CAPTURE(affine);
      auto out = poisoned<float>(std::size_t(s.rows * s.ld_out));
      auto rstd = poisoned<float>(std::size_t(s.rows) + 1);
      auto const store = rf::store(out.data(), s.ld_out);
      std::vector<double> const v =
          affine == 0 ? rf::reference::rmsnorm(load, store, rf::no_affine, eps, rstd.data())
          : affine == 1
              ? rf::reference::rmsnorm(load, store, rf::affine(gamma.data()), eps, rstd.data())
              : rf::reference::rmsnorm(load, store, rf::zero_centered_gamma(gamma.data()), eps,
                                       rstd.data());
      check_written(out, v, s);
      CHECK(is_poison(rstd[std::size_t(s.rows)]));
      for (index_t r = 0; r < s.rows; ++r) {
        auto const x = row_of(in, r, s.cols, s.ld_in);
        real const rs = 1 / std::sqrt(mean_square_of(x) + real(eps));
        CHECK(close(rstd[std::size_t(r)], rs, 0x1p-24, 0));
        for (index_t c = 0; c < s.cols; ++c) {
          real want = x[std::size_t(c)] * rs;
          real const g = gamma[std::size_t(c)];
          if (affine == 1)
            want *= g;
          if (affine == 2)
            want *= 1 + g;
          REQUIRE(close(v[std::size_t(r * s.cols + c)], want, 1e-12, 1e-13));
        }
      }
    }
  }
}

// ---- 16-bit inputs and outputs -------------------------------------------------------------

TEST_CASE("fp16 and bf16 inputs and outputs: widened exactly, rounded within half an ulp") {
  auto run = [](auto in_tag, auto out_tag) {
    using In = decltype(in_tag);
    using Out = decltype(out_tag);
    std::string const name =
        std::string(rf::element_traits<In>::name) + " -> " + rf::element_traits<Out>::name;
    CAPTURE(name);
    shape const s{6, 77, 80, 79};
    auto const dense = random_floats(std::size_t(s.rows * s.cols), 400);
    auto const in = strided<In>(dense, s.rows, s.cols, s.ld_in);
    std::vector<In> gamma(std::size_t(s.cols)), beta(std::size_t(s.cols));
    auto const g = random_floats(std::size_t(s.cols), 401, 0.5f, 1.5f),
               b = random_floats(std::size_t(s.cols), 402);
    for (index_t c = 0; c < s.cols; ++c) {
      gamma[std::size_t(c)] = to<In>(g[std::size_t(c)]);
      beta[std::size_t(c)] = to<In>(b[std::size_t(c)]);
    }
    auto const load = rf::load(in.data(), s.rows, s.cols, s.ld_in);

    auto out = poisoned<Out>(std::size_t(s.rows * s.ld_out));
    auto const p = rf::reference::softmax(load, rf::store(out.data(), s.ld_out));
    check_written(out, p, s);
    auto out_ln = poisoned<Out>(std::size_t(s.rows * s.ld_out));
    auto const ln = rf::reference::layernorm(load, rf::store(out_ln.data(), s.ld_out),
                                             rf::affine(gamma.data(), beta.data()), 1e-5f);
    check_written(out_ln, ln, s);
    auto out_rms = poisoned<Out>(std::size_t(s.rows * s.ld_out));
    auto const rms = rf::reference::rmsnorm(load, rf::store(out_rms.data(), s.ld_out),
                                            rf::zero_centered_gamma(gamma.data()), 1e-5f);
    check_written(out_rms, rms, s);
    for (index_t r = 0; r < s.rows; ++r) {
      auto const x = row_of(in, r, s.cols, s.ld_in); // the 16-bit values, widened
      auto const want = naive_softmax(x);
      real const m = mean_of(x), rs = 1 / std::sqrt(variance_of(x) + real(1e-5f));
      real const rrs = 1 / std::sqrt(mean_square_of(x) + real(1e-5f));
      for (index_t c = 0; c < s.cols; ++c) {
        std::size_t const i = std::size_t(r * s.cols + c);
        real const gc = widen<double>(gamma[std::size_t(c)]),
                   bc = widen<double>(beta[std::size_t(c)]);
        REQUIRE(close(p[i], want[std::size_t(c)], 1e-12, 1e-300));
        REQUIRE(close(ln[i], (x[std::size_t(c)] - m) * rs * gc + bc, 1e-12, 1e-12));
        REQUIRE(close(rms[i], x[std::size_t(c)] * rrs * (1 + gc), 1e-12, 1e-13));
      }
    }
  };
  run(__half{}, __half{});
  run(__half{}, float{});
  run(__nv_bfloat16{}, __nv_bfloat16{});
  run(__nv_bfloat16{}, __half{});
  run(float{}, __nv_bfloat16{});
}

// ---- shapes at the edges -------------------------------------------------------------------

TEST_CASE("zero rows is a no-op that writes nothing (null pointers allowed)") {
  float const x[4] = {1, 2, 3, 4};
  float const gamma[4] = {1, 1, 1, 1};
  auto out = poisoned<float>(4);
  float stats[2];
  std::memset(stats, 0x7F, sizeof stats);
  CHECK(rf::reference::softmax(rf::load(x, 0, 4), rf::store(out.data())).empty());
  CHECK(rf::reference::log_softmax(rf::load(x, 0, 4), rf::store(out.data())).empty());
  CHECK(rf::reference::layernorm(rf::load(x, 0, 4), rf::store(out.data()), rf::affine(gamma), 1e-5f,
                                 rf::row_stats{stats, stats + 1})
            .empty());
  CHECK(
      rf::reference::rmsnorm(rf::load(x, 0, 4), rf::store(out.data()), rf::no_affine, 1e-5f, stats)
          .empty());
  for (float v : out)
    CHECK(is_poison(v));
  CHECK(is_poison(stats[0]));
  CHECK(is_poison(stats[1]));
  float const* no_input = nullptr;
  float* no_output = nullptr;
  CHECK(rf::reference::softmax(rf::load(no_input, 0, 4), rf::store(no_output)).empty());
  CHECK(rf::reference::softmax(rf::load(no_input, 0, 0), rf::store(no_output)).empty());
  CHECK(rf::reference::rmsnorm(rf::load(no_input, 0, 4), rf::store(no_output), rf::no_affine, 1e-5f)
            .empty());
}

TEST_CASE("one column: softmax 1, log_softmax 0, layernorm beta, rmsnorm x / sqrt(x^2 + eps)") {
  index_t const rows = 5;
  auto const x = random_floats(std::size_t(rows), 500);
  float const gamma[1] = {1.5f}, beta[1] = {-0.75f};
  std::vector<float> y(static_cast<std::size_t>(rows));
  for (double v : rf::reference::softmax(rf::load(x.data(), rows, 1), rf::store(y.data())))
    CHECK(v == 1.0);
  for (double v : rf::reference::log_softmax(rf::load(x.data(), rows, 1), rf::store(y.data())))
    CHECK(v == 0.0);
  for (double v : rf::reference::layernorm(rf::load(x.data(), rows, 1), rf::store(y.data()),
                                           rf::affine(gamma, beta), 1e-5f))
    CHECK(v == -0.75);
  auto const r = rf::reference::rmsnorm(rf::load(x.data(), rows, 1), rf::store(y.data()),
                                        rf::no_affine, 1e-5f);
  for (index_t i = 0; i < rows; ++i) {
    double const xi = x[std::size_t(i)];
    CHECK(r[std::size_t(i)] ==
          doctest::Approx(xi / std::sqrt(xi * xi + double(1e-5f))).epsilon(1e-15));
  }
}

TEST_CASE("an input ld larger than cols is honoured by all four ops") {
  // The padding of the input is NaN: reading it would make a row NaN.
  index_t const rows = 3, cols = 5, ld = 8;
  auto const dense = random_floats(std::size_t(rows * cols), 600);
  auto const in = strided<float>(dense, rows, cols, ld);
  std::vector<float> out(std::size_t(rows * cols));
  auto const load = rf::load(in.data(), rows, cols, ld);
  for (double v : rf::reference::softmax(load, rf::store(out.data())))
    CHECK_FALSE(std::isnan(v));
  for (double v : rf::reference::log_softmax(load, rf::store(out.data())))
    CHECK_FALSE(std::isnan(v));
  for (double v : rf::reference::layernorm(load, rf::store(out.data()), rf::no_affine, 1e-5f))
    CHECK_FALSE(std::isnan(v));
  for (double v : rf::reference::rmsnorm(load, rf::store(out.data()), rf::no_affine, 1e-5f))
    CHECK_FALSE(std::isnan(v));
}

// ---- layernorm's shifted mean ----------------------------------------------------------------

TEST_CASE("layernorm: a constant row gives exactly beta after any load chain; its mean is exact") {
  // 0.7 * v + 0.1 in double is not a float, and n copies of it do not sum exactly in double:
  // a plain sum / n would leave x - mean at a few ulps of double, times rstd = 1 / sqrt(eps).
  index_t const rows = 4, cols = 1001;
  auto const values = random_floats(std::size_t(rows), 21);
  std::vector<float> x(std::size_t(rows * cols));
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c)
      x[std::size_t(r * cols + c)] = values[std::size_t(r)];
  std::vector<float> const bias(std::size_t(cols), 0.1f);
  auto const gamma = random_floats(std::size_t(cols), 22);
  auto const beta = random_floats(std::size_t(cols), 23);
  auto out = poisoned<float>(x.size());
  float mean[rows], rstd[rows];
  auto const v = rf::reference::layernorm(
      rf::load(x.data(), rows, cols) | rf::scale(0.7f) | rf::bias(bias.data()),
      rf::store(out.data()), rf::affine(gamma.data(), beta.data()), 1e-5f,
      rf::row_stats{mean, rstd});
  for (index_t r = 0; r < rows; ++r) {
    CHECK(mean[r] == float(double(values[std::size_t(r)]) * double(0.7f) + double(0.1f)));
    CHECK(rstd[r] == float(1 / std::sqrt(double(1e-5f))));
    for (index_t c = 0; c < cols; ++c)
      REQUIRE(v[std::size_t(r * cols + c)] == double(beta[std::size_t(c)]));
  }
}

TEST_CASE("layernorm: rows of mean 1e4 and of 10^6 elements match the long double formula") {
  // The statistics of a row with mean 1e4 and unit spread, and of a long row, are what the GPU
  // tests hold the kernels to (1e-5): the reference must be far closer than that.
  std::mt19937 rng(31);
  std::normal_distribution<float> unit(0.0f, 1.0f);
  for (index_t cols : {index_t(7), index_t(4096), index_t(1000000)}) {
    CAPTURE(cols);
    index_t const rows = 2;
    std::vector<float> x(std::size_t(rows * cols));
    for (index_t c = 0; c < cols; ++c) {
      x[std::size_t(c)] = 1e4f + unit(rng);        // row 0: mean 1e4, sd 1
      x[std::size_t(cols + c)] = 4.0f * unit(rng); // row 1: mean 0, sd 4
    }
    std::vector<float> out(x.size()), mean(static_cast<std::size_t>(rows)),
        rstd(static_cast<std::size_t>(rows));
    auto const v =
        rf::reference::layernorm(rf::load(x.data(), rows, cols), rf::store(out.data()),
                                 rf::no_affine, 1e-5f, rf::row_stats{mean.data(), rstd.data()});
    for (index_t r = 0; r < rows; ++r) {
      auto const row = row_of(x, r, cols, cols);
      real const m = mean_of(row), rs = 1 / std::sqrt(variance_of(row) + real(1e-5f));
      CHECK(close(mean[std::size_t(r)], m, 0x1p-24, 1e-12));
      CHECK(close(rstd[std::size_t(r)], rs, 0x1p-24, 0));
      int wrong = 0;
      for (index_t c = 0; c < cols; ++c)
        wrong += !close(v[std::size_t(r * cols + c)], (row[std::size_t(c)] - m) * rs, 1e-10, 1e-10);
      CHECK(wrong == 0);
    }
  }
}
