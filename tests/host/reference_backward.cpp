// The backward host reference (rf::reference::softmax_backward, log_softmax_backward,
// layernorm_backward, rmsnorm_backward) against central finite differences of the forward host
// reference, on small random cases (1-5 rows, 1-40 columns, many seeds), through load chains
// (scale, causal mask, dropout replayed on dy, the residual block's chain) and store chains
// (scale, cast), plus hand-computed rows, masks, NaN, shapes at the edges and bad arguments.
//
// The finite differences. For a forward F (the forward reference's exact outputs) and a loss
// L = <w, F> with w the incoming gradient dy, dL/dx_j = <w, dF/dx_j> is estimated as
// <w, F(x + h e_j) - F(x - h e_j)> / 2h, the perturbation placed in the forward's load chain (a
// functor) where the gradient is taken, h a power of two so that x +- h is exact. Its error has
// two parts, both budgeted per row in `difference_error`:
//   truncation, (h^2 / 6) |d^3 L / dx_j^3|: h is 2^-16 of the scale on which F varies (1 for the
//     softmax family's inputs, the row's standard deviation 1 / rstd for the norms), so it is
//     2^-32 / 6 ~ 4e-11 of the gradient's scale G, far inside the 1e-7 * G allowed;
//   rounding, the outputs' own few ulps of double: each of the row's cols outputs, of magnitude
//     at most M, carries up to ~8 ulps (2^-49 M), and the difference divides them by 2h.
// The norms read the fp32 mean and rstd they saved, as the kernel does, so their dx differs from
// the exact gradient by the statistics' rounding (2^-24 relative each), bounded in
// `stats_error` from the formula and allowed in full. The forward's y reaches the softmax family's
// backward as exact doubles (the `exact_values` functor), since its fp32 rounding would hide
// errors a thousand times larger than the differences' own.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <rowfuse/expr.hpp>
#include <rowfuse/op/affine.hpp>
#include <rowfuse/reference.hpp>
#include <rowfuse/reference_backward.hpp>

#include "../support/error_message.hpp"

namespace rf = rowfuse;
using rf::index_t;
using rf::detail::widen;

namespace {

std::vector<float> random_floats(std::size_t n, unsigned seed, float lo, float hi) {
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

std::vector<double> widened(std::vector<float> const& v) {
  return {v.begin(), v.end()};
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

/// Whether `written` is `exact` rounded to T: within half an ulp of T at exact's magnitude.
template <class T> bool within_half_ulp(double exact, T const& written) {
  double const w = widen<double>(written);
  if (std::isnan(exact))
    return std::isnan(w);
  if (exact == 0 || std::isinf(exact))
    return w == exact;
  int const min_exponent = std::is_same_v<T, __half> ? -14 : -126;
  int const e = std::max(std::ilogb(exact), min_exponent);
  return std::abs(w - exact) <= std::ldexp(1.0, e - rf::element_traits<T>::mantissa_bits) / 2;
}

/// Adds h to element (row, col) of the chain's values and passes the others: the perturbation
/// of a finite difference, placed in a load chain where the gradient is taken.
struct nudge {
  index_t row = -1, col = -1;
  double h = 0;
  double operator()(double v, index_t r, index_t c) const {
    return r == row && c == col ? v + h : v;
  }
};

/// Replaces the loaded values by `values` (rows * cols doubles, row-major): hands a backward the
/// forward's exact output instead of its fp32 rounding.
struct exact_values {
  double const* values;
  index_t cols;
  double operator()(double, index_t r, index_t c) const {
    return values[std::size_t(r * cols + c)];
  }
};

/// dy * keep / (1 - p) from a stored keep mask (1 kept, 0 dropped): the dropout's backward
/// without its replay.
struct stored_keep {
  std::uint8_t const* keep;
  index_t cols;
  float p;
  double operator()(double v, index_t r, index_t c) const {
    return keep[std::size_t(r * cols + c)] ? v * (1.0 / (1.0 - double(p))) : 0.0;
  }
};

/// <w, F(x + h e_rc) - F(x - h e_rc)> / 2h for every input element (r, c), `forward(nudge)`
/// giving the forward reference's exact outputs with the nudge in its load chain and `step[r]`
/// the row's h. An output equal on both sides (a masked log-probability, -inf, or an output of
/// another row) contributes nothing.
template <class Forward>
std::vector<double> vjp_by_differences(Forward const& forward, std::vector<double> const& w,
                                       index_t rows, index_t cols,
                                       std::vector<double> const& step) {
  std::vector<double> out(std::size_t(rows * cols));
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) {
      double const h = step[std::size_t(r)];
      std::vector<double> const plus = forward(nudge{r, c, h});
      std::vector<double> const minus = forward(nudge{r, c, -h});
      double sum = 0.0;
      for (std::size_t i = 0; i < w.size(); ++i)
        if (plus[i] != minus[i])
          sum += w[i] * (plus[i] - minus[i]);
      out[std::size_t(r * cols + c)] = sum / (2 * h);
    }
  return out;
}

/// The rounding part of a difference's error (the header): cols outputs of magnitude <= M with
/// ~8 ulps of double each, weighted by |w| <= w_max, divided by 2h; and the truncation part,
/// 1e-7 of the gradient's scale G (the header: the truncation itself is ~4e-11 G).
double difference_error(index_t cols, double w_max, double output_max, double h, double G) {
  return double(cols) * w_max * 0x1p-49 * output_max / (2 * h) + 1e-7 * G;
}

double max_abs(std::vector<double> const& v, std::size_t from, std::size_t count) {
  double m = 0;
  for (std::size_t i = from; i < from + count; ++i)
    m = std::max(m, std::abs(v[i]));
  return m;
}

/// Every |got - want| within allowed[row]; the first miss is reported with its place.
void check_within(std::vector<double> const& got, std::vector<double> const& want,
                  std::vector<double> const& allowed, index_t cols) {
  REQUIRE(got.size() == want.size());
  int wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double const tol = allowed[i / std::size_t(cols)];
    if (!(std::abs(got[i] - want[i]) <= tol)) {
      if (wrong++ == 0) {
        CAPTURE(i / std::size_t(cols));
        CAPTURE(i % std::size_t(cols));
        CAPTURE(got[i]);
        CAPTURE(want[i]);
        CAPTURE(tol);
        FAIL_CHECK("the reference gradient is off the finite difference");
      }
    }
  }
  CHECK(wrong == 0);
}

/// A random case: 1-5 rows, 1-40 columns.
struct case_shape {
  index_t rows, cols;
};
case_shape shape_for(unsigned seed) {
  std::mt19937 rng(seed * 7919u);
  return {index_t(1 + rng() % 5), index_t(1 + rng() % 40)};
}
constexpr unsigned seeds = 24;

} // namespace

// ---- softmax and log-softmax ---------------------------------------------------------------

TEST_CASE("softmax_backward and log_softmax_backward: hand-computed rows") {
  // softmax of two: dx0 = -dx1 = y0 y1 (dy0 - dy1); y = (1/4, 3/4), dy = (1, -1): +-3/8.
  float const y[2] = {0.25f, 0.75f}, dy[2] = {1.0f, -1.0f};
  float dx[2];
  auto const v =
      rf::reference::softmax_backward(rf::load(y, 1, 2), rf::load(dy, 1, 2), rf::store(dx));
  CHECK(v[0] == 0.375);
  CHECK(v[1] == -0.375);
  CHECK(dx[0] == 0.375f);
  CHECK(dx[1] == -0.375f);
  // log-softmax of two: dx = dy - p * sum(dy); p = (1/4, 3/4), dy = (1, 2): (1/4, -1/4).
  double const log_p[2] = {std::log(0.25), std::log(0.75)};
  float const ly[2] = {0, 0}, ldy[2] = {1.0f, 2.0f};
  auto const lv = rf::reference::log_softmax_backward(rf::load(ly, 1, 2) | exact_values{log_p, 2},
                                                      rf::load(ldy, 1, 2), rf::store(dx));
  CHECK(lv[0] == doctest::Approx(0.25).epsilon(1e-15));
  CHECK(lv[1] == doctest::Approx(-0.25).epsilon(1e-15));
  // One column: y = 1 (log: 0) and dx = 0 exactly, whatever dy.
  float const one[3] = {1, 1, 1}, zero[3] = {0, 0, 0}, g[3] = {3.5f, -2, 0.25f};
  for (double d :
       rf::reference::softmax_backward(rf::load(one, 3, 1), rf::load(g, 3, 1), rf::store(dx)))
    CHECK(d == 0.0);
  for (double d :
       rf::reference::log_softmax_backward(rf::load(zero, 3, 1), rf::load(g, 3, 1), rf::store(dx)))
    CHECK(d == 0.0);
  // A uniform dy has no effect on softmax (it shifts the loss by a constant).
  float const p[4] = {0.125f, 0.5f, 0.25f, 0.125f}, flat[4] = {1.5f, 1.5f, 1.5f, 1.5f};
  float out[4];
  for (double d :
       rf::reference::softmax_backward(rf::load(p, 1, 4), rf::load(flat, 1, 4), rf::store(out)))
    CHECK(d == 0.0);
}

namespace {

/// The softmax family's case: the forward softmax or log-softmax of x through
/// `| scale(load_scale) [| causal_mask(q_len)]`, its output times `store_scale` (and, with
/// `dropout`, dropped); dy uniform in [-2, 2). The backward gets the forward's exact y (before
/// the store transforms), dy with the store transforms replayed (| scale, | dropout, and the
/// causal mask when `mask_on_dy`), and scales dx by load_scale. Checked against the differences.
struct softmax_case {
  bool log = false;
  float load_scale = 1.0f, store_scale = 1.0f;
  bool causal = false, mask_on_dy = false, dropout = false;
};

void check_softmax_case(softmax_case const& k, unsigned seed) {
  case_shape const shape = shape_for(seed);
  index_t const rows = shape.rows, cols = shape.cols;
  CAPTURE(seed);
  CAPTURE(rows);
  CAPTURE(cols);
  CAPTURE(k.log);
  auto const x = random_floats(std::size_t(rows * cols), 1000 + seed, -4.0f, 4.0f);
  auto const dy = random_floats(x.size(), 2000 + seed, -2.0f, 2.0f);
  index_t const q_len = std::max<index_t>(1, rows - 1); // rows past q_len wrap: r % q_len
  float const p = 0.25f;
  std::uint64_t const dropout_seed = 77 + seed, offset = 5;
  std::vector<float> y_out(x.size());

  auto const input = [&](auto const& extra) {
    auto const chain = rf::load(x.data(), rows, cols) | extra | rf::scale(k.load_scale);
    return chain | rf::causal_mask(k.causal ? q_len : 1, k.causal ? 0 : cols);
  };
  auto const run = [&](auto const& load, auto const& store) {
    return k.log ? rf::reference::log_softmax(load, store) : rf::reference::softmax(load, store);
  };
  // The forward as the loss sees it, and its y before the store transforms.
  auto const forward = [&](nudge n) {
    auto const store = rf::store(y_out.data()) | rf::scale(k.store_scale) |
                       rf::dropout(k.dropout ? p : 0.0f, dropout_seed, offset);
    return run(input(n), store);
  };
  std::vector<double> const y = run(input(nudge{}), rf::store(y_out.data()));

  std::vector<float> dx_out(x.size());
  auto const grad = rf::load(dy.data(), rows, cols) | rf::scale(k.store_scale) |
                    rf::dropout(k.dropout ? p : 0.0f, dropout_seed, offset);
  auto const y_load = rf::load(y_out.data(), rows, cols) | exact_values{y.data(), cols};
  auto const dx_store = rf::store(dx_out.data()) | rf::scale(k.load_scale);
  auto const backward = [&](auto const& dy_load) {
    return k.log ? rf::reference::log_softmax_backward(y_load, dy_load, dx_store)
                 : rf::reference::softmax_backward(y_load, dy_load, dx_store);
  };
  std::vector<double> const dx =
      k.mask_on_dy ? backward(grad | rf::causal_mask(q_len)) : backward(grad);

  double const h =
      std::ldexp(1.0, std::ilogb(1.0 / double(k.load_scale)) - 16); // of the op's input
  std::vector<double> const step(std::size_t(rows), h);
  std::vector<double> const w = widened(dy);
  std::vector<double> const want = vjp_by_differences(forward, w, rows, cols, step);
  std::vector<double> allowed(static_cast<std::size_t>(rows));
  double const keep_scale = k.dropout ? 1.0 / (1.0 - double(p)) : 1.0;
  for (index_t r = 0; r < rows; ++r) {
    std::size_t const first = std::size_t(r * cols);
    double const w_max = max_abs(w, first, std::size_t(cols)) * keep_scale;
    // |F| <= store_scale (probabilities) or store_scale * max |y| (log-probabilities, finite);
    // |dx| <= 2 * load_scale * store_scale * max |dy| (softmax) and up to cols times that
    // (log-softmax: p * sum(dy)).
    double y_max = 1.0;
    for (std::size_t i = first; i < first + std::size_t(cols); ++i)
      if (std::isfinite(y[i]))
        y_max = std::max(y_max, std::abs(y[i]));
    double const output_max = double(k.store_scale) * y_max * keep_scale;
    double const G = double(k.load_scale) * double(k.store_scale) * w_max * (k.log ? cols : 2);
    allowed[std::size_t(r)] = difference_error(cols, w_max, output_max, h, G);
  }
  check_within(dx, want, allowed, cols);

  // Masked elements: exactly 0, with or without the mask carried on dy.
  if (k.causal)
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = r % q_len + 1; c < cols; ++c)
        REQUIRE(dx[std::size_t(r * cols + c)] == 0.0);
  // dx_out is dx rounded to fp32.
  for (std::size_t i = 0; i < dx.size(); ++i)
    REQUIRE(within_half_ulp(dx[i], dx_out[i]));
}

} // namespace

TEST_CASE("softmax_backward matches finite differences of softmax") {
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    check_softmax_case({}, seed);
    check_softmax_case({.load_scale = 0.375f, .store_scale = 1.5f}, seed);
  }
}

TEST_CASE("log_softmax_backward matches finite differences of log_softmax") {
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    check_softmax_case({.log = true}, seed);
    check_softmax_case({.log = true, .load_scale = 0.375f, .store_scale = 1.5f}, seed);
  }
}

TEST_CASE("the attention pipeline's backward: scale -> causal mask -> softmax -> dropout") {
  for (unsigned seed = 1; seed <= seeds; ++seed)
    for (bool mask_on_dy : {false, true}) {
      CAPTURE(mask_on_dy);
      check_softmax_case(
          {.load_scale = 0.125f, .causal = true, .mask_on_dy = mask_on_dy, .dropout = true}, seed);
      check_softmax_case({.log = true,
                          .load_scale = 0.125f,
                          .causal = true,
                          .mask_on_dy = mask_on_dy,
                          .dropout = true},
                         seed);
    }
}

TEST_CASE("dropout replayed on dy: dropped elements contribute nothing, kept ones 1 / (1 - p); "
          "a stored keep mask gives the same") {
  index_t const rows = 4, cols = 37;
  auto const y_raw = random_floats(std::size_t(rows * cols), 31, 0.0f, 1.0f);
  auto dy = random_floats(y_raw.size(), 32, -2.0f, 2.0f);
  std::vector<std::uint8_t> keep(y_raw.size(), 0x7F);
  std::vector<float> out(y_raw.size());
  float const p = 0.3f;
  auto const grad = [&](std::uint8_t* mask) {
    return rf::load(dy.data(), rows, cols) | rf::dropout(p, 9, 3, mask);
  };
  auto const y = rf::load(y_raw.data(), rows, cols);
  for (bool log : {false, true}) {
    CAPTURE(log);
    auto const backward = [&](std::uint8_t* mask) {
      return log ? rf::reference::log_softmax_backward(y, grad(mask), rf::store(out.data()))
                 : rf::reference::softmax_backward(y, grad(mask), rf::store(out.data()));
    };
    std::vector<double> const before = backward(keep.data()); // writes the keep mask
    int dropped = 0;
    auto const saved = dy;
    for (std::size_t i = 0; i < dy.size(); ++i) {
      REQUIRE(keep[i] <= 1);
      if (keep[i] == 0) {
        dy[i] = 1e6f * (1.0f + float(i)); // no effect on any dx
        ++dropped;
      }
    }
    CHECK(dropped > 0);
    CHECK(backward(nullptr) == before);
    dy = saved;
    // dy through the replay is dy * keep / (1 - p): the same dx as that dy with no dropout.
    std::vector<float> replayed(dy.size());
    for (std::size_t i = 0; i < dy.size(); ++i)
      replayed[i] = keep[i] ? float(double(dy[i]) / (1.0 - double(p))) : 0.0f;
    auto const plain = log ? rf::reference::log_softmax_backward(
                                 y, rf::load(replayed.data(), rows, cols), rf::store(out.data()))
                           : rf::reference::softmax_backward(
                                 y, rf::load(replayed.data(), rows, cols), rf::store(out.data()));
    // replayed rounds dy / (1 - p) <= 3 to fp32 (2^-24 relative), which reaches dx with a weight
    // of 1 + sum(y) <= 1 + cols (softmax) or 1 + e * cols (log-softmax, exp(y) <= e): doubled.
    double const allowed = 2 * 0x1p-24 * 3 * (1 + std::exp(1.0) * cols);
    for (std::size_t i = 0; i < plain.size(); ++i)
      REQUIRE(std::abs(plain[i] - before[i]) <= allowed);
    // The keep mask stored by the forward, applied by a transform of the caller's, instead of
    // the replay: the same dx, bit for bit (both scale by 1 / (1 - p) in double).
    auto const stored = rf::load(dy.data(), rows, cols) | stored_keep{keep.data(), cols, p};
    auto const from_mask =
        log ? rf::reference::log_softmax_backward(y, stored, rf::store(out.data()))
            : rf::reference::softmax_backward(y, stored, rf::store(out.data()));
    CHECK(from_mask == before);
  }
}

TEST_CASE("a NaN stays in its row: dy's in every op, y's in softmax (log-softmax's y enters its "
          "own element alone)") {
  index_t const rows = 4, cols = 9;
  std::size_t const at = std::size_t(2 * cols + 5);
  auto y = random_floats(std::size_t(rows * cols), 41, 0.0f, 1.0f);
  auto dy = random_floats(y.size(), 42, -2.0f, 2.0f);
  std::vector<float> out(y.size());
  for (bool in_y : {false, true})
    for (bool log : {false, true}) {
      CAPTURE(in_y);
      CAPTURE(log);
      auto yy = y, dd = dy;
      (in_y ? yy : dd)[at] = std::nanf("");
      auto const load_y = rf::load(yy.data(), rows, cols);
      auto const load_dy = rf::load(dd.data(), rows, cols);
      auto const v =
          log ? rf::reference::log_softmax_backward(load_y, load_dy, rf::store(out.data()))
              : rf::reference::softmax_backward(load_y, load_dy, rf::store(out.data()));
      // log-softmax's sum is over dy alone: a NaN y reaches only dx = dy - exp(y) * sum there.
      bool const row_wide = !(in_y && log);
      for (std::size_t i = 0; i < v.size(); ++i) {
        bool const nan = row_wide ? i / std::size_t(cols) == 2 : i == at;
        REQUIRE(std::isnan(v[i]) == nan);
        REQUIRE(std::isnan(out[i]) == nan);
      }
    }
}

TEST_CASE("a fully masked row gives dx = 0, never NaN; a masked dy's value is never read") {
  index_t const rows = 3, cols = 6;
  auto const y = random_floats(std::size_t(rows * cols), 51, 0.0f, 1.0f);
  auto dy = random_floats(y.size(), 52, -2.0f, 2.0f);
  bool masked[rows * cols] = {};
  for (index_t c = 0; c < cols; ++c)
    masked[cols + c] = true;                 // row 1
  masked[2 * cols + 4] = true;               // one element of row 2
  dy[std::size_t(cols + 2)] = std::nanf(""); // masked: never read
  auto out = poisoned<float>(y.size());
  for (bool log : {false, true}) {
    auto const grad = rf::load(dy.data(), rows, cols) | rf::mask(masked);
    auto const v = log ? rf::reference::log_softmax_backward(rf::load(y.data(), rows, cols), grad,
                                                             rf::store(out.data()))
                       : rf::reference::softmax_backward(rf::load(y.data(), rows, cols), grad,
                                                         rf::store(out.data()));
    for (index_t c = 0; c < cols; ++c) {
      CHECK(v[std::size_t(cols + c)] == 0.0);
      CHECK(out[std::size_t(cols + c)] == 0.0f);
    }
    CHECK(v[std::size_t(2 * cols + 4)] == 0.0);
    // Row 2 is the backward of its five unmasked elements alone.
    std::vector<double> ys, ds;
    for (index_t c = 0; c < cols; ++c)
      if (c != 4) {
        ys.push_back(y[std::size_t(2 * cols + c)]);
        ds.push_back(dy[std::size_t(2 * cols + c)]);
      }
    double sum = 0;
    for (std::size_t i = 0; i < ys.size(); ++i)
      sum += log ? ds[i] : ds[i] * ys[i];
    for (index_t c = 0, k = 0; c < cols; ++c) {
      if (c == 4)
        continue;
      double const want = log ? ds[std::size_t(k)] - std::exp(ys[std::size_t(k)]) * sum
                              : ys[std::size_t(k)] * (ds[std::size_t(k)] - sum);
      ++k;
      CHECK(v[std::size_t(2 * cols + c)] == doctest::Approx(want).epsilon(1e-14));
    }
    for (float o : out)
      CHECK_FALSE(std::isnan(o));
  }
}

TEST_CASE("16-bit y and dy, a cast on the way out: dx is the formula on the widened values, "
          "rounded within half an ulp") {
  auto run = [](auto in_tag, auto out_tag) {
    using In = decltype(in_tag);
    using Out = decltype(out_tag);
    std::string const name =
        std::string(rf::element_traits<In>::name) + " -> " + rf::element_traits<Out>::name;
    CAPTURE(name);
    index_t const rows = 3, cols = 29, ld_in = 32, ld_out = 31;
    auto const yf = random_floats(std::size_t(rows * cols), 61, 0.0f, 0.1f);
    auto const df = random_floats(yf.size(), 62, -2.0f, 2.0f);
    std::vector<In> y(std::size_t(rows * ld_in)), dy(y.size());
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; ++c) {
        y[std::size_t(r * ld_in + c)] = to<In>(yf[std::size_t(r * cols + c)]);
        dy[std::size_t(r * ld_in + c)] = to<In>(df[std::size_t(r * cols + c)]);
      }
    auto out = poisoned<Out>(std::size_t(rows * ld_out));
    float const s = 0.5f;
    auto const v = rf::reference::softmax_backward(
        rf::load(y.data(), rows, cols, ld_in), rf::load(dy.data(), rows, cols, ld_in),
        rf::store(out.data(), ld_out) | rf::cast<Out>(s));
    for (index_t r = 0; r < rows; ++r) {
      long double sum = 0;
      for (index_t c = 0; c < cols; ++c)
        sum += (long double)widen<double>(dy[std::size_t(r * ld_in + c)]) *
               widen<double>(y[std::size_t(r * ld_in + c)]);
      for (index_t c = 0; c < ld_out; ++c) {
        Out const& written = out[std::size_t(r * ld_out + c)];
        if (c >= cols) {
          REQUIRE(is_poison(written));
          continue;
        }
        double const yi = widen<double>(y[std::size_t(r * ld_in + c)]);
        double const di = widen<double>(dy[std::size_t(r * ld_in + c)]);
        double const got = v[std::size_t(r * cols + c)];
        // A sum of 29 products in double against long double: 1e-14 of the row's scale.
        REQUIRE(std::abs(got - double(s * yi * (di - sum))) <= 1e-14 * 8);
        REQUIRE(within_half_ulp(got, written));
      }
    }
  };
  run(__half{}, __half{});
  run(__nv_bfloat16{}, __nv_bfloat16{});
  run(__half{}, float{});
  run(float{}, __nv_bfloat16{});
}

// ---- layernorm and rmsnorm -----------------------------------------------------------------

namespace {

enum class affine_kind { none, gamma, gamma_beta, zero_centered };

/// The norms' case: the forward layernorm or rmsnorm of x (through | scale(load_scale)), its
/// output times store_scale; dy uniform in [-2, 2). The backward reads x through the same chain,
/// dy | scale(store_scale), the saved fp32 statistics, and scales dx by load_scale. dx, dgamma and
/// dbeta are checked against the differences in x, gamma and beta.
struct norm_case {
  bool layer = true;
  affine_kind affine = affine_kind::gamma_beta;
  float load_scale = 1.0f, store_scale = 1.0f;
  float row_offset = 0.0f; // added to every row: statistics far from zero
};

/// The bound of the fp32 statistics' effect on dx (the header): x_hat moves by up to
/// D = 2^-24 (max |x_hat| + |mean| rstd), rstd's own rounding moves dx by 2^-24 |dx|, and
/// x_hat * mean(g * x_hat) by up to 2 max |x_hat| max |g| D; doubled for the second-order terms.
double stats_error(double dx_max, double rstd, double mean, double x_hat_max, double g_max) {
  double const d = 0x1p-24 * (x_hat_max + std::abs(mean) * rstd);
  return 2 * (0x1p-24 * dx_max + 2 * rstd * x_hat_max * g_max * d);
}

template <class Affine>
void check_norm(norm_case const& k, unsigned seed, Affine const& affine, std::vector<float>& gamma,
                std::vector<float>& beta) {
  case_shape const shape = shape_for(seed);
  index_t const rows = shape.rows, cols = shape.cols;
  CAPTURE(rows);
  CAPTURE(cols);
  float const eps = 1e-5f;
  auto x = random_floats(std::size_t(rows * cols), 3000 + seed, -4.0f, 4.0f);
  for (float& v : x)
    v += k.row_offset;
  auto const dy = random_floats(x.size(), 4000 + seed, -2.0f, 2.0f);
  std::vector<float> y_out(x.size()), mean(static_cast<std::size_t>(rows)),
      rstd(static_cast<std::size_t>(rows));
  bool const has_gamma = k.affine != affine_kind::none;
  bool const has_beta = k.affine == affine_kind::gamma_beta;

  auto const input = [&](auto const& extra) {
    return rf::load(x.data(), rows, cols) | extra | rf::scale(k.load_scale);
  };
  auto const forward_with = [&](auto const& load, float* mean_out, float* rstd_out) {
    auto const store = rf::store(y_out.data()) | rf::scale(k.store_scale);
    return k.layer ? rf::reference::layernorm(load, store, affine, eps,
                                              rf::row_stats{mean_out, rstd_out})
                   : rf::reference::rmsnorm(load, store, affine, eps, rstd_out);
  };
  auto const forward = [&](nudge n) { return forward_with(input(n), nullptr, nullptr); };
  forward_with(input(nudge{}), mean.data(), rstd.data()); // the saved statistics

  auto dx_out = poisoned<float>(x.size());
  auto dgamma = poisoned<float>(std::size_t(cols) + 1),
       dbeta = poisoned<float>(std::size_t(cols) + 1);
  rf::affine_grads const grads{has_gamma ? dgamma.data() : nullptr,
                               has_beta ? dbeta.data() : nullptr};
  auto const grad = rf::load(dy.data(), rows, cols) | rf::scale(k.store_scale);
  auto const dx_store = rf::store(dx_out.data()) | rf::scale(k.load_scale);
  rf::reference::norm_gradients const got =
      k.layer ? rf::reference::layernorm_backward(input(nudge{}), grad, dx_store, affine,
                                                  rf::row_stats{mean.data(), rstd.data()}, grads)
              : rf::reference::rmsnorm_backward(input(nudge{}), grad, dx_store, affine, rstd.data(),
                                                grads);

  // dx against the differences in x.
  std::vector<double> step(static_cast<std::size_t>(rows)), allowed(static_cast<std::size_t>(rows));
  std::vector<double> const w = widened(dy);
  std::vector<double> x_hat_max(static_cast<std::size_t>(rows)),
      g_max(static_cast<std::size_t>(rows)), output_max(static_cast<std::size_t>(rows));
  double gamma_max = 1.0, beta_max = 0.0;
  for (index_t c = 0; c < cols; ++c) {
    double const g = has_gamma ? double(gamma[std::size_t(c)]) : 1.0;
    gamma_max = std::max(gamma_max, std::abs(k.affine == affine_kind::zero_centered ? 1 + g : g));
    if (has_beta)
      beta_max = std::max(beta_max, std::abs(double(beta[std::size_t(c)])));
  }
  for (index_t r = 0; r < rows; ++r) {
    double const s = rstd[std::size_t(r)], m = k.layer ? double(mean[std::size_t(r)]) : 0.0;
    // 2^-16 of the row's spread 1 / rstd, of the raw x (before the load scale): a power of two.
    double const h = std::ldexp(1.0, std::ilogb(1.0 / (s * double(k.load_scale))) - 16);
    step[std::size_t(r)] = h;
    std::size_t const first = std::size_t(r * cols);
    double const w_max = max_abs(w, first, std::size_t(cols)) * double(k.store_scale);
    double xh = 0;
    for (index_t c = 0; c < cols; ++c)
      xh = std::max(xh, std::abs((double(x[first + std::size_t(c)]) * k.load_scale - m) * s));
    x_hat_max[std::size_t(r)] = xh;
    g_max[std::size_t(r)] = gamma_max * w_max;
    // |F| <= store_scale * (max |x_hat| gamma' + max |beta|); x_hat's own rounding in the forward
    // is relative to |x| rstd, not to |x - mean| rstd: the larger of the two.
    double const x_max = (max_abs(widened(x), first, std::size_t(cols)) + 1) * k.load_scale;
    output_max[std::size_t(r)] =
        double(k.store_scale) * (std::max(xh, x_max * s) * gamma_max + beta_max);
    // |dx| <= load_scale * rstd * max |g| * (2 + max |x_hat|^2).
    double const G = double(k.load_scale) * s * g_max[std::size_t(r)] * (2 + xh * xh);
    allowed[std::size_t(r)] =
        difference_error(cols, w_max, output_max[std::size_t(r)], h, G) +
        double(k.load_scale) * stats_error(G, s, m, xh, g_max[std::size_t(r)]);
  }
  check_within(got.dx, vjp_by_differences(forward, w, rows, cols, step), allowed, cols);
  for (std::size_t i = 0; i < got.dx.size(); ++i)
    REQUIRE(within_half_ulp(got.dx[i], dx_out[i]));

  // dgamma and dbeta against the differences in gamma and beta: F is linear in each, so the
  // difference has no truncation error, only the outputs' rounding. gamma +- 2^-12 need not be a
  // float (zero-centred gammas near 0): the step taken is the one the rounded gamma made.
  auto const parameter_differences = [&](std::vector<float>& param) {
    std::vector<double> d(static_cast<std::size_t>(cols));
    for (index_t c = 0; c < cols; ++c) {
      float const kept = param[std::size_t(c)];
      param[std::size_t(c)] = kept + 0x1p-12f;
      double const up = double(param[std::size_t(c)]) - double(kept);
      auto const plus = forward(nudge{});
      param[std::size_t(c)] = kept - 0x1p-12f;
      double const down = double(kept) - double(param[std::size_t(c)]);
      auto const minus = forward(nudge{});
      param[std::size_t(c)] = kept;
      double sum = 0;
      for (std::size_t i = 0; i < w.size(); ++i)
        sum += w[i] * (plus[i] - minus[i]);
      d[std::size_t(c)] = sum / (up + down);
    }
    return d;
  };
  // Per column, the outputs' rounding (two outputs a row over a step of 2^-11) and, for dgamma,
  // the saved statistics' (x_hat within D of the exact, the header), over the rows.
  auto const check_parameter = [&](std::vector<double> const& exact, std::vector<float> const& out,
                                   std::vector<double> const& want, bool with_stats) {
    for (index_t c = 0; c < cols; ++c) {
      double err = 0;
      for (index_t r = 0; r < rows; ++r) {
        double const s = rstd[std::size_t(r)], m = k.layer ? double(mean[std::size_t(r)]) : 0.0;
        double const wr = std::abs(w[std::size_t(r * cols + c)]) * double(k.store_scale);
        err += std::abs(w[std::size_t(r * cols + c)]) * 2 * 0x1p-49 * output_max[std::size_t(r)] /
               0x1p-11;
        if (with_stats)
          err += 2 * wr * 0x1p-24 * (x_hat_max[std::size_t(r)] + std::abs(m) * s);
      }
      CAPTURE(c);
      REQUIRE(std::abs(exact[std::size_t(c)] - want[std::size_t(c)]) <= err + 1e-12);
      REQUIRE(within_half_ulp(exact[std::size_t(c)], out[std::size_t(c)]));
    }
    CHECK(is_poison(out[std::size_t(cols)])); // cols values, no more
  };
  if (has_gamma)
    check_parameter(got.dgamma, dgamma, parameter_differences(gamma), true);
  if (has_beta)
    check_parameter(got.dbeta, dbeta, parameter_differences(beta), false);
  if (!has_gamma)
    CHECK(is_poison(dgamma[0]));
  if (!has_beta)
    CHECK(is_poison(dbeta[0]));
}

void check_norm_case(norm_case const& k, unsigned seed) {
  CAPTURE(seed);
  CAPTURE(k.layer);
  CAPTURE(int(k.affine));
  index_t const cols = shape_for(seed).cols;
  auto gamma = random_floats(std::size_t(cols), 5000 + seed, 0.5f, 1.5f);
  auto beta = random_floats(std::size_t(cols), 6000 + seed, -0.5f, 0.5f);
  switch (k.affine) {
  case affine_kind::none:
    return check_norm(k, seed, rf::no_affine, gamma, beta);
  case affine_kind::gamma:
    return check_norm(k, seed, rf::affine(gamma.data()), gamma, beta);
  case affine_kind::gamma_beta:
    return check_norm(k, seed, rf::affine(gamma.data(), beta.data()), gamma, beta);
  case affine_kind::zero_centered:
    for (float& g : gamma)
      g -= 1.0f; // offsets from one, in [-0.5, 0.5)
    return check_norm(k, seed, rf::zero_centered_gamma(gamma.data()), gamma, beta);
  }
}

} // namespace

TEST_CASE("layernorm_backward matches finite differences in x, gamma and beta") {
  for (unsigned seed = 1; seed <= seeds; ++seed)
    for (affine_kind a : {affine_kind::none, affine_kind::gamma, affine_kind::gamma_beta,
                          affine_kind::zero_centered}) {
      check_norm_case({.layer = true, .affine = a}, seed);
      check_norm_case({.layer = true,
                       .affine = a,
                       .load_scale = 0.375f,
                       .store_scale = 1.5f,
                       .row_offset = 3.0f},
                      seed);
    }
}

TEST_CASE("rmsnorm_backward matches finite differences in x and gamma") {
  for (unsigned seed = 1; seed <= seeds; ++seed)
    for (affine_kind a : {affine_kind::none, affine_kind::gamma, affine_kind::zero_centered}) {
      check_norm_case({.layer = false, .affine = a}, seed);
      check_norm_case({.layer = false,
                       .affine = a,
                       .load_scale = 0.375f,
                       .store_scale = 1.5f,
                       .row_offset = 3.0f},
                      seed);
    }
}

TEST_CASE("layernorm_backward and rmsnorm_backward: hand-computed") {
  float const eps = 1e-5f;
  // layernorm of two, no affine: x_hat = +-d rstd with d = (x0 - x1) / 2, and
  // dx0 = -dx1 = rstd (dy0 - dy1) / 2 (1 - x_hat^2). Row {1, 3}: d = -1.
  float const x[2] = {1, 3}, dy[2] = {1, -1};
  float mean[1] = {2}, rstd[1] = {float(1 / std::sqrt(1 + double(eps)))};
  float dx[2], dgamma[2], dbeta[2];
  float const gamma[2] = {2, 0.5f}, beta[2] = {0, 0};
  double const s = rstd[0], x_hat = -s;
  auto const v =
      rf::reference::layernorm_backward(rf::load(x, 1, 2), rf::load(dy, 1, 2), rf::store(dx),
                                        rf::no_affine, rf::row_stats{mean, rstd});
  CHECK(v.dx[0] == doctest::Approx(s * (1 - x_hat * x_hat)).epsilon(1e-12));
  CHECK(v.dx[1] == doctest::Approx(-s * (1 - x_hat * x_hat)).epsilon(1e-12));
  // With gamma: g = (2, -0.5), mean(g) = 0.75, mean(g x_hat) = (2 x_hat + 0.5 x_hat) / 2.
  auto const a = rf::reference::layernorm_backward(
      rf::load(x, 1, 2), rf::load(dy, 1, 2), rf::store(dx), rf::affine(gamma, beta),
      rf::row_stats{mean, rstd}, rf::affine_grads{dgamma, dbeta});
  double const m = 1.25 * x_hat;
  CHECK(a.dx[0] == doctest::Approx(s * (2 - 0.75 - x_hat * m)).epsilon(1e-12));
  CHECK(a.dx[1] == doctest::Approx(s * (-0.5 - 0.75 + x_hat * m)).epsilon(1e-12));
  CHECK(a.dgamma[0] == doctest::Approx(x_hat).epsilon(1e-15)); // dy0 x_hat0
  CHECK(a.dgamma[1] == doctest::Approx(x_hat).epsilon(1e-15)); // dy1 x_hat1 = (-1)(-x_hat)
  CHECK(dgamma[0] == float(a.dgamma[0]));
  CHECK(dbeta[0] == 1.0f);
  CHECK(dbeta[1] == -1.0f);
  // One column: x_hat = 0, so dx = 0 exactly, dgamma = 0, dbeta = dy.
  float const one[3] = {0.5f, -2, 7}, g1[3] = {1.5f, -0.25f, 3};
  float m1[3] = {0.5f, -2, 7}, r1[3] = {316, 316, 316};
  float d1[3], dg1[1], db1[1];
  float const gam1[1] = {1.25f}, bet1[1] = {0};
  auto const c = rf::reference::layernorm_backward(
      rf::load(one, 3, 1), rf::load(g1, 3, 1), rf::store(d1), rf::affine(gam1, bet1),
      rf::row_stats{m1, r1}, rf::affine_grads{dg1, db1});
  for (double d : c.dx)
    CHECK(d == 0.0);
  CHECK(dg1[0] == 0.0f);
  CHECK(db1[0] == 4.25f);
  // rmsnorm of one column: x_hat = x rstd, dx = rstd g (1 - x_hat^2) = rstd g eps / (x^2 + eps).
  float const xr[1] = {3}, dr[1] = {2};
  float rr[1] = {float(1 / std::sqrt(9 + double(eps)))};
  float dxr[1];
  auto const r = rf::reference::rmsnorm_backward(rf::load(xr, 1, 1), rf::load(dr, 1, 1),
                                                 rf::store(dxr), rf::zero_centered_gamma(gam1), rr);
  double const xh = 3 * double(rr[0]);
  CHECK(r.dx[0] == doctest::Approx(double(rr[0]) * 2 * 2.25 * (1 - xh * xh)).epsilon(1e-12));
  CHECK(r.dgamma[0] == doctest::Approx(2 * xh).epsilon(1e-15));
}

TEST_CASE("the residual block's backward: the pre-norm sum's gradient, and through the replayed "
          "dropout the branch's") {
  // Forward: h = dropout(x + bias) + residual, y = layernorm(h). The backward recomputes h with
  // the forward's chain; dx of h is the residual's gradient, and dropout(dx) (the same seed and
  // offset on the store side) is x's.
  for (unsigned seed = 1; seed <= 8; ++seed) {
    case_shape const shape = shape_for(seed);
    index_t const rows = shape.rows, cols = shape.cols;
    CAPTURE(seed);
    auto const x = random_floats(std::size_t(rows * cols), 7000 + seed, -4.0f, 4.0f);
    auto const residual = random_floats(x.size(), 7100 + seed, -4.0f, 4.0f);
    auto const dy = random_floats(x.size(), 7200 + seed, -2.0f, 2.0f);
    auto const bias = random_floats(std::size_t(cols), 7300 + seed, -0.5f, 0.5f);
    auto const gamma = random_floats(std::size_t(cols), 7400 + seed, 0.5f, 1.5f);
    auto const beta = random_floats(std::size_t(cols), 7500 + seed, -0.5f, 0.5f);
    float const p = 0.25f, eps = 1e-5f;
    auto const affine = rf::affine(gamma.data(), beta.data());
    auto const chain = [&](nudge before, nudge after) {
      return rf::load(x.data(), rows, cols) | before | rf::bias(bias.data()) |
             rf::dropout(p, 11, 2) | rf::add(residual.data()) | after;
    };
    std::vector<float> y(x.size()), mean(static_cast<std::size_t>(rows)),
        rstd(static_cast<std::size_t>(rows));
    rf::reference::layernorm(chain({}, {}), rf::store(y.data()), affine, eps,
                             rf::row_stats{mean.data(), rstd.data()});
    std::vector<float> d_residual(x.size()), d_x(x.size());
    rf::row_stats const saved{mean.data(), rstd.data()};
    auto const dh =
        rf::reference::layernorm_backward(chain({}, {}), rf::load(dy.data(), rows, cols),
                                          rf::store(d_residual.data()), affine, saved);
    auto const dx = rf::reference::layernorm_backward(
        chain({}, {}), rf::load(dy.data(), rows, cols),
        rf::store(d_x.data()) | rf::dropout(p, 11, 2), affine, saved);

    std::vector<double> const w = widened(dy);
    std::vector<double> step(static_cast<std::size_t>(rows)),
        allowed(static_cast<std::size_t>(rows));
    for (index_t r = 0; r < rows; ++r) {
      double const s = rstd[std::size_t(r)];
      step[std::size_t(r)] = std::ldexp(1.0, std::ilogb(1.0 / s) - 16);
      double const w_max = max_abs(w, std::size_t(r * cols), std::size_t(cols));
      double const xh = 2 * std::sqrt(double(cols)); // |x_hat| <= sqrt(cols)
      double const G = s * 1.5 * w_max * (2 + xh * xh) / (1 - double(p));
      // h reaches 10 in magnitude (x / (1 - p) + bias + residual): its rounding is relative to
      // that, times rstd.
      double const output_max = (xh + 12 * s) * 1.5 + 0.5;
      allowed[std::size_t(r)] = difference_error(cols, w_max, output_max, step[std::size_t(r)], G) +
                                stats_error(G, s, mean[std::size_t(r)], xh, 1.5 * w_max);
    }
    auto const forward_at = [&](bool before) {
      return [&, before](nudge n) {
        std::vector<float> out(x.size());
        return rf::reference::layernorm(before ? chain(n, {}) : chain({}, n), rf::store(out.data()),
                                        affine, eps);
      };
    };
    check_within(dh.dx, vjp_by_differences(forward_at(false), w, rows, cols, step), allowed, cols);
    check_within(dx.dx, vjp_by_differences(forward_at(true), w, rows, cols, step), allowed, cols);
  }
}

// ---- shapes at the edges and bad arguments -------------------------------------------------

TEST_CASE("zero rows: no dx written; the parameter gradients are the empty sum, 0") {
  float const x[4] = {1, 2, 3, 4}, gamma[4] = {1, 1, 1, 1}, beta[4] = {0, 0, 0, 0};
  auto out = poisoned<float>(4);
  auto dgamma = poisoned<float>(4), dbeta = poisoned<float>(4);
  CHECK(rf::reference::softmax_backward(rf::load(x, 0, 4), rf::load(x, 0, 4), rf::store(out.data()))
            .empty());
  CHECK(rf::reference::log_softmax_backward(rf::load(x, 0, 4), rf::load(x, 0, 4),
                                            rf::store(out.data()))
            .empty());
  float* no_stats = nullptr;
  auto const g = rf::reference::layernorm_backward(
      rf::load(x, 0, 4), rf::load(x, 0, 4), rf::store(out.data()), rf::affine(gamma, beta),
      rf::row_stats{no_stats, no_stats}, rf::affine_grads{dgamma.data(), dbeta.data()});
  CHECK(g.dx.empty());
  for (float v : out)
    CHECK(is_poison(v));
  for (int c = 0; c < 4; ++c) {
    CHECK(dgamma[std::size_t(c)] == 0.0f);
    CHECK(dbeta[std::size_t(c)] == 0.0f);
  }
  CHECK(rf::reference::rmsnorm_backward(rf::load(x, 0, 4), rf::load(x, 0, 4), rf::store(out.data()),
                                        rf::no_affine, no_stats)
            .dx.empty());
}

TEST_CASE("bad arguments name the call, the argument and its value") {
  using test::error_message;
  float const a[6] = {0.1f, 0.2f, 0.3f, 0.1f, 0.2f, 0.1f}, gamma[3] = {1, 1, 1},
              beta[3] = {0, 0, 0};
  float out[6], mean[2] = {0, 0}, rstd[2] = {1, 1}, dgamma[3], dbeta[3];
  CHECK(error_message([&] {
          rf::reference::softmax_backward(rf::load(a, 2, 3), rf::load(a, 1, 3), rf::store(out));
        }) == "rowfuse: rf::softmax_backward: dy has rows = 1, y has 2");
  CHECK(error_message([&] {
          rf::reference::log_softmax_backward(rf::load(a, 2, 3), rf::load(a, 3, 2), rf::store(out));
        }) == "rowfuse: rf::log_softmax_backward: dy has rows = 3, y has 2");
  CHECK(error_message([&] {
          rf::reference::softmax_backward(rf::load(a, 2, 3), rf::load(a, 2, 2), rf::store(out));
        }) == "rowfuse: rf::softmax_backward: dy has cols = 2, y has 3");
  CHECK(error_message([&] {
          rf::reference::softmax_backward(rf::load(a, 2, 3), rf::load(a, 2, 3), rf::store(out, 2));
        }) == "rowfuse: rf::softmax_backward: output.ld = 2 must be >= cols = 3");
  CHECK(error_message([&] {
          rf::reference::layernorm_backward(rf::load(a, 2, 3), rf::load(a, 2, 3), rf::store(out),
                                            rf::no_affine, rf::row_stats{nullptr, rstd});
        }) == "rowfuse: rf::layernorm_backward: saved mean is a null pointer with 2 rows");
  CHECK(error_message([&] {
          rf::reference::layernorm_backward(rf::load(a, 2, 3), rf::load(a, 2, 3), rf::store(out),
                                            rf::no_affine, rf::row_stats{mean, nullptr});
        }) == "rowfuse: rf::layernorm_backward: saved rstd is a null pointer with 2 rows");
  CHECK(error_message([&] {
          rf::reference::rmsnorm_backward(rf::load(a, 2, 3), rf::load(a, 2, 3), rf::store(out),
                                          rf::no_affine, nullptr);
        }) == "rowfuse: rf::rmsnorm_backward: rstd is a null pointer with 2 rows");
  std::string const no_gamma = error_message([&] {
    rf::reference::layernorm_backward(rf::load(a, 2, 3), rf::load(a, 2, 3), rf::store(out),
                                      rf::no_affine, rf::row_stats{mean, rstd},
                                      rf::affine_grads{dgamma, nullptr});
  });
  CHECK(no_gamma.find("rowfuse: rf::layernorm_backward: dgamma = 0x") == 0);
  CHECK(no_gamma.find("given, but the norm has no gamma (rf::no_affine): leave it null") !=
        std::string::npos);
  std::string const no_beta = error_message([&] {
    rf::reference::layernorm_backward(rf::load(a, 2, 3), rf::load(a, 2, 3), rf::store(out),
                                      rf::affine(gamma), rf::row_stats{mean, rstd},
                                      rf::affine_grads{dgamma, dbeta});
  });
  CHECK(no_beta.find("rowfuse: rf::layernorm_backward: dbeta = 0x") == 0);
  CHECK(no_beta.find("given, but the forward had no beta") != std::string::npos);
  std::string const rms_dbeta = error_message([&] {
    rf::reference::rmsnorm_backward(rf::load(a, 2, 3), rf::load(a, 2, 3), rf::store(out),
                                    rf::affine(gamma), rstd, rf::affine_grads{dgamma, dbeta});
  });
  CHECK(rms_dbeta.find("given, but rmsnorm has no shift: leave it null") != std::string::npos);
  std::string const rms_beta = error_message([&] {
    rf::reference::rmsnorm_backward(rf::load(a, 2, 3), rf::load(a, 2, 3), rf::store(out),
                                    rf::affine(gamma, beta), rstd);
  });
  CHECK(rms_beta.find("rowfuse: rf::rmsnorm_backward: beta = 0x") == 0);
  CHECK(rms_beta.find("rmsnorm has no shift") != std::string::npos);
  CHECK(error_message([&] {
          rf::reference::layernorm_backward(rf::load(a, 2, 3), rf::load(a, 2, 3), rf::store(out),
                                            rf::affine(static_cast<float const*>(nullptr)),
                                            rf::row_stats{mean, rstd});
        }) == "rowfuse: rf::layernorm_backward: gamma is a null pointer with 1 x 3 elements");
  // Nothing written before a throw.
  float untouched[6];
  std::memset(untouched, 0x7F, sizeof untouched);
  CHECK(error_message([&] {
          rf::reference::softmax_backward(rf::load(a, 2, 3), rf::load(a, 2, 2),
                                          rf::store(untouched));
        }) != "<no exception>");
  for (float v : untouched)
    CHECK(is_poison(v));
}
