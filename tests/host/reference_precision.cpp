// The host reference at the precision edges the GPU tests hold the kernels to
// (tests/gpu/precision_edges.cu): log-softmax of a row whose maximum dominates keeps its top
// output -log1p(rest) even where 1 + rest rounds to 1 in double; the special rows (fully masked,
// NaN, +inf, shared maxima) keep their meaning.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <rowfuse/expr.hpp>
#include <rowfuse/reference.hpp>

namespace rf = rowfuse;

namespace {

std::vector<double> log_softmax_row(std::vector<float> const& row) {
  std::vector<float> out(row.size());
  return rf::reference::log_softmax(rf::load(row.data(), 1, rf::index_t(row.size())),
                                    rf::store(out.data()));
}

double const inf = std::numeric_limits<double>::infinity();

} // namespace

TEST_CASE("log-softmax: the top output of a dominated row is -log1p(rest)") {
  for (float gap : {17.0f, 40.0f, 87.0f, 100.0f}) {
    CAPTURE(gap);
    auto const y = log_softmax_row({0.0f, -gap, -gap});
    double const rest = 2.0 * std::exp(-double(gap));
    // Below 2^-53, 1 + rest is 1 in double: log(sum) would give exactly 0.
    CHECK(y[0] == doctest::Approx(-std::log1p(rest)).epsilon(1e-14));
    CHECK(y[0] < 0.0);
    CHECK(y[1] == doctest::Approx(-double(gap) - std::log1p(rest)).epsilon(1e-14));
  }
}

TEST_CASE("log-softmax: maxima shared by several elements") {
  auto const y = log_softmax_row({3.0f, 3.0f, 3.0f, -50.0f});
  double const log_sum = std::log(3.0 + std::exp(-53.0));
  CHECK(y[0] == doctest::Approx(-log_sum).epsilon(1e-15));
  CHECK(y[2] == doctest::Approx(-log_sum).epsilon(1e-15));
  CHECK(y[3] == doctest::Approx(-53.0 - log_sum).epsilon(1e-15));
  CHECK(log_softmax_row({5.0f})[0] == 0.0);
}

TEST_CASE("log-softmax: special rows keep their meaning") {
  float const nan_f = std::numeric_limits<float>::quiet_NaN();
  float const inf_f = std::numeric_limits<float>::infinity();
  for (double v : log_softmax_row({-inf_f, -inf_f}))
    CHECK(v == -inf); // fully masked
  for (double v : log_softmax_row({1.0f, nan_f, 2.0f}))
    CHECK(std::isnan(v));
  for (double v : log_softmax_row({1.0f, inf_f, 2.0f}))
    CHECK(std::isnan(v)); // inf - inf in the sum, as on the GPU
  auto const y = log_softmax_row({-inf_f, 0.0f});
  CHECK(y[0] == -inf);
  CHECK(y[1] == 0.0);
}
