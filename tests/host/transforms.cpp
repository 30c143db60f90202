// Load and store transforms, one at a time and composed: hand-computed small cases and random
// inputs checked against explicit index arithmetic. Load chains are evaluated through the bound
// expression's own load<N> (as the kernels do) and through the host reference ops; store chains
// through store<N> and the host reference.
#include <doctest/doctest.h>

#include <algorithm>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <rowfuse/engine/pure_chain.hpp>
#include <rowfuse/expr.hpp>
#include <rowfuse/reference.hpp>

namespace rf = rowfuse;
using rf::index_t;

namespace {

double const inf = std::numeric_limits<double>::infinity();

std::vector<float> random_floats(std::size_t n, unsigned seed, float lo = -4.0f, float hi = 4.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(lo, hi);
  std::vector<float> v(n);
  for (float& x : v)
    x = uniform(rng);
  return v;
}

std::vector<std::uint8_t> random_mask(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> m(n);
  std::uint8_t const nonzero[] = {1, 2, 255};
  for (auto& b : m)
    b = rng() % 2 ? nonzero[rng() % 3] : 0;
  return m;
}

/// A float array whose padding (and anything not meant to be read) is NaN: a transform that
/// reads outside its view shows up as NaN in the result.
std::vector<float> padded(std::vector<float> const& dense, index_t rows, index_t cols, index_t ld) {
  std::vector<float> out(std::size_t(rows * ld), std::nanf(""));
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c)
      out[std::size_t(r * ld + c)] = dense[std::size_t(r * cols + c)];
  return out;
}

/// y[r * cols + c] = the bound load expression's load<1>(r, c), in double (the host compute type).
template <class L> std::vector<double> eval_load(L const& expr, bool emit = true) {
  auto const bound = rf::detail::bind(expr, "test");
  index_t const rows = bound.input.rows, cols = bound.input.cols;
  std::vector<double> y(std::size_t(rows * cols));
  rf::load_context context{emit};
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) {
      double v[1];
      bound.template load<1>(r, c, v, context);
      y[std::size_t(r * cols + c)] = v[0];
    }
  return y;
}

/// The same through packs of N (cols a multiple of N, every view aligned), in V.
template <int N, class V, class L> std::vector<double> eval_load_packs(L const& expr) {
  auto const bound = rf::detail::bind(expr, "test");
  index_t const rows = bound.input.rows, cols = bound.input.cols;
  REQUIRE(cols % N == 0);
  REQUIRE(bound.input.aligned_to(rf::detail::pack_alignment<typename L::element_type, N>));
  REQUIRE(rf::detail::chain_allows_pack<N>(bound));
  std::vector<double> y(std::size_t(rows * cols));
  rf::load_context context{true};
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; c += N) {
      V v[N];
      bound.template load<N>(r, c, v, context);
      for (int j = 0; j < N; ++j)
        y[std::size_t(r * cols + c + j)] = double(v[j]);
    }
  return y;
}

bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

bool is_poison(float v) {
  std::uint32_t u;
  std::memcpy(&u, &v, 4);
  return u == 0x7F7F7F7Fu;
}

std::uint16_t bits(__half h) {
  return __half_raw(h).x;
}
std::uint16_t bits(__nv_bfloat16 b) {
  return __nv_bfloat16_raw(b).x;
}

} // namespace

// ---- scale ---------------------------------------------------------------------------------

TEST_CASE("scale multiplies every element by the factor") {
  float const x[6] = {1.0f, -2.0f, 0.5f, 3.0f, 1.5f, -0.25f};
  CHECK(eval_load(rf::load(x, 2, 3) | rf::scale(0.5f)) ==
        std::vector<double>{0.5, -1.0, 0.25, 1.5, 0.75, -0.125});
  CHECK(eval_load(rf::load(x, 3, 2) | rf::scale(-4.0f)) ==
        std::vector<double>{-4.0, 8.0, -2.0, -12.0, -6.0, 1.0});

  auto const xs = random_floats(7 * 9, 1);
  for (float s : {0.125f, 3.7f, -1e-3f}) {
    auto const y = eval_load(rf::load(xs.data(), 7, 9) | rf::scale(s));
    // float * float is exact in double, so the host path is exact.
    for (std::size_t i = 0; i < xs.size(); ++i)
      REQUIRE(y[i] == double(xs[i]) * double(s));
    // The kernels' float path rounds the product once.
    auto const yf = eval_load_packs<1, float>(rf::load(xs.data(), 7, 9) | rf::scale(s));
    for (std::size_t i = 0; i < xs.size(); ++i)
      REQUIRE(yf[i] == double(xs[i] * s));
  }
}

// ---- bias ----------------------------------------------------------------------------------

TEST_CASE("bias adds a per-column vector to every row") {
  float const x[6] = {1, 2, 3, 4, 5, 6};
  float const b[3] = {10, 20, 30};
  CHECK(eval_load(rf::load(x, 2, 3) | rf::bias(b)) == std::vector<double>{11, 22, 33, 14, 25, 36});

  index_t const rows = 6, cols = 5, ld = 8;
  auto const xs = random_floats(std::size_t(rows * cols), 2);
  auto const input = padded(xs, rows, cols, ld);
  std::vector<float> bias = random_floats(std::size_t(cols), 3);
  bias.push_back(std::nanf("")); // one past the end: must not be read
  auto const y = eval_load(rf::load(input.data(), rows, cols, ld) | rf::bias(bias.data()));
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c)
      REQUIRE(y[std::size_t(r * cols + c)] ==
              double(xs[std::size_t(r * cols + c)]) + double(bias[std::size_t(c)]));

  // A bf16 bias is widened exactly.
  std::vector<__nv_bfloat16> bias16(static_cast<std::size_t>(cols));
  for (index_t c = 0; c < cols; ++c)
    bias16[std::size_t(c)] = __float2bfloat16_rn(bias[std::size_t(c)]);
  auto const y16 = eval_load(rf::load(xs.data(), rows, cols) | rf::bias(bias16.data()));
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c)
      REQUIRE(y16[std::size_t(r * cols + c)] ==
              double(xs[std::size_t(r * cols + c)]) +
                  double(__bfloat162float(bias16[std::size_t(c)])));
}

// ---- add -----------------------------------------------------------------------------------

TEST_CASE("add adds a full-shape operand, honouring its ld and the input's") {
  float const x[4] = {1, 2, 3, 4};
  float const a[6] = {0.5f, -1.0f, 99.0f, 2.0f, 0.25f, 99.0f}; // ld = 3: the 99s are padding
  CHECK(eval_load(rf::load(x, 2, 2) | rf::add(a, 3)) == std::vector<double>{1.5, 1.0, 5.0, 4.25});

  index_t const rows = 5, cols = 6;
  auto const xs = random_floats(std::size_t(rows * cols), 4);
  auto const as = random_floats(std::size_t(rows * cols), 5);
  auto const input = padded(xs, rows, cols, 9);
  auto const operand = padded(as, rows, cols, 7);
  auto check = [&](std::vector<double> const& y) {
    for (std::size_t i = 0; i < xs.size(); ++i)
      REQUIRE(y[i] == double(xs[i]) + double(as[i]));
  };
  check(eval_load(rf::load(input.data(), rows, cols, 9) | rf::add(operand.data(), 7)));
  check(eval_load(rf::load(input.data(), rows, cols, 9) |
                  rf::add(rf::dense(operand.data(), -1, -1, 7))));
  check(eval_load(rf::load(xs.data(), rows, cols) | rf::add(as.data())));

  // An fp16 operand on an fp16 input.
  std::vector<__half> x16(xs.size()), a16(as.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    x16[i] = __float2half_rn(xs[i]);
    a16[i] = __float2half_rn(as[i]);
  }
  auto const y16 = eval_load(rf::load(x16.data(), rows, cols) | rf::add(a16.data()));
  for (std::size_t i = 0; i < xs.size(); ++i)
    REQUIRE(y16[i] == double(__half2float(x16[i])) + double(__half2float(a16[i])));
}

// ---- mask ----------------------------------------------------------------------------------

TEST_CASE("mask replaces elements whose mask is nonzero by the fill value (-inf by default)") {
  float const x[4] = {1, 2, 3, 4};
  bool const mb[4] = {false, true, false, true};
  CHECK(eval_load(rf::load(x, 2, 2) | rf::mask(mb)) == std::vector<double>{1, -inf, 3, -inf});
  std::uint8_t const mu[4] = {0, 0, 7, 255};
  CHECK(eval_load(rf::load(x, 1, 4) | rf::mask(mu, -1e4f)) ==
        std::vector<double>{1, 2, -1e4, -1e4});
  CHECK(eval_load(rf::load(x, 1, 4) | rf::mask(mu, 0.5f)) == std::vector<double>{1, 2, 0.5, 0.5});

  index_t const rows = 7, cols = 5, ld = 8;
  auto const xs = random_floats(std::size_t(rows * cols), 6);
  auto const m8 = random_mask(std::size_t(rows * ld), 7); // ld > cols: padding is random too
  bool mbool[7 * 8];
  for (std::size_t i = 0; i < m8.size(); ++i)
    mbool[i] = m8[i] != 0;
  int masked = 0;
  for (float fill : {-std::numeric_limits<float>::infinity(), -3.5f}) {
    auto const y8 = eval_load(rf::load(xs.data(), rows, cols) | rf::mask(m8.data(), fill, ld));
    auto const yb = eval_load(rf::load(xs.data(), rows, cols) | rf::mask(mbool, fill, ld));
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; ++c) {
        std::size_t const i = std::size_t(r * cols + c);
        bool const m = m8[std::size_t(r * ld + c)] != 0;
        masked += m;
        double const want = m ? double(fill) : double(xs[i]);
        REQUIRE(y8[i] == want);
        REQUIRE(yb[i] == want);
      }
  }
  CHECK(masked > 0);
  CHECK(masked < 2 * rows * cols);
}

// ---- causal_mask ---------------------------------------------------------------------------

TEST_CASE("causal_mask(q_len, offset) masks column c of row r iff c > r % q_len + offset") {
  SUBCASE("hand-computed: q_len 2, offset 0, two [2, 3] blocks") {
    float const x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    CHECK(eval_load(rf::load(x, 4, 3) | rf::causal_mask(2)) ==
          std::vector<double>{1, -inf, -inf, 4, 5, -inf, 7, -inf, -inf, 10, 11, -inf});
  }
  SUBCASE("hand-computed: bottom-right aligned, q_len 3, k_len 5, offset 2") {
    float const x[15] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    CHECK(eval_load(rf::load(x, 3, 5) | rf::causal_mask(3, 2)) ==
          std::vector<double>{1, 2, 3, -inf, -inf, 6, 7, 8, 9, -inf, 11, 12, 13, 14, 15});
  }
  SUBCASE("random shapes and offsets, including negative ones (whole rows masked)") {
    for (index_t q_len : {1, 3, 4})
      for (index_t offset : {-2, 0, 1, 3})
        for (index_t cols : {1, 4, 7}) {
          index_t const rows = 3 * q_len;
          auto const xs = random_floats(std::size_t(rows * cols), unsigned(q_len * 100 + cols));
          auto const y =
              eval_load(rf::load(xs.data(), rows, cols) | rf::causal_mask(q_len, offset));
          for (index_t r = 0; r < rows; ++r)
            for (index_t c = 0; c < cols; ++c) {
              std::size_t const i = std::size_t(r * cols + c);
              bool const masked = c > r % q_len + offset; // (b, h, q) = r / q_len, q = r % q_len
              REQUIRE(y[i] == (masked ? -inf : double(xs[i])));
            }
        }
  }
  SUBCASE("packs of 8, the diagonal anywhere in a pack, q_len past what a row count reaches") {
    // Packs wholly left of the diagonal return early; r % q_len is a multiplication where both
    // fit 32 bits: q_len 1 (no reciprocal), odd, a power of two, 2^32 - 1 and 2^32 (the
    // remainder operator).
    index_t const cols = 40;
    for (index_t q_len : {index_t(1), index_t(5), index_t(8), index_t(37), (index_t(1) << 32) - 1,
                          index_t(1) << 32})
      for (index_t offset : {index_t(-9), index_t(0), index_t(3), index_t(17)}) {
        index_t const rows = 50;
        auto const xs = random_floats(std::size_t(rows * cols), unsigned(q_len % 1000 + offset));
        auto const y = eval_load_packs<8, float>(rf::load(xs.data(), rows, cols) |
                                                 rf::causal_mask(q_len, offset));
        for (index_t r = 0; r < rows; ++r)
          for (index_t c = 0; c < cols; ++c) {
            std::size_t const i = std::size_t(r * cols + c);
            REQUIRE(y[i] == (c > r % q_len + offset ? -inf : double(xs[i])));
          }
      }
  }
  SUBCASE("row indices past 2^32 take the remainder operator") {
    auto const node = rf::causal_mask(1000, 2).bind("test", 1, 8);
    for (index_t row : {index_t(0), index_t(999), index_t(1000), (index_t(1) << 32) - 1,
                        index_t(1) << 32, (index_t(1) << 32) + 12345, index_t(1) << 40})
      CHECK(node.query_position(row) == row % 1000);
  }
}

// ---- tee -----------------------------------------------------------------------------------

TEST_CASE(
    "tee writes the value at its position in the chain, rounded to its type, and passes it on") {
  index_t const rows = 5, cols = 7;
  auto const xs = random_floats(std::size_t(rows * cols), 8);
  auto const as = random_floats(std::size_t(rows * cols), 9);
  auto const bs = random_floats(std::size_t(cols), 10);

  SUBCASE("in the middle: sees the transforms before it only") {
    std::vector<__half> h(xs.size());
    std::memset(static_cast<void*>(h.data()), 0xFF,
                h.size() * sizeof(__half)); // 0xFFFF is an fp16 NaN
    auto const y = eval_load(rf::load(xs.data(), rows, cols) | rf::scale(2.0f) | rf::tee(h.data()) |
                             rf::add(as.data()));
    for (std::size_t i = 0; i < xs.size(); ++i) {
      REQUIRE(bits(h[i]) == bits(__float2half_rn(2.0f * xs[i]))); // 2x is exact in float
      REQUIRE(y[i] == 2.0 * xs[i] + double(as[i]));
    }
  }
  SUBCASE("first, last, and two tees in one chain") {
    std::vector<float> t0(xs.size()), t1(xs.size());
    std::vector<__nv_bfloat16> t2(xs.size());
    std::memset(t0.data(), 0x7F, t0.size() * 4);
    std::memset(t1.data(), 0x7F, t1.size() * 4);
    std::memset(static_cast<void*>(t2.data()), 0xFF, t2.size() * 2); // bf16 NaN
    auto const y =
        eval_load(rf::load(xs.data(), rows, cols) | rf::tee(t0.data()) | rf::bias(bs.data()) |
                  rf::tee(t2.data()) | rf::scale(0.5f) | rf::tee(t1.data()));
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; ++c) {
        std::size_t const i = std::size_t(r * cols + c);
        double const biased = double(xs[i]) + double(bs[std::size_t(c)]);
        REQUIRE(t0[i] == xs[i]);
        REQUIRE(bits(t2[i]) == bits(__float2bfloat16_rn(float(biased))));
        REQUIRE(t1[i] == float(biased * 0.5));
        REQUIRE(y[i] == biased * 0.5);
      }
  }
  SUBCASE("with ld > cols the padding is left alone") {
    index_t const ld = 10;
    std::vector<float> t(std::size_t(rows * ld));
    std::memset(t.data(), 0x7F, t.size() * 4);
    (void)eval_load(rf::load(xs.data(), rows, cols) | rf::tee(t.data(), ld));
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < ld; ++c) {
        float const v = t[std::size_t(r * ld + c)];
        if (c < cols)
          REQUIRE(v == xs[std::size_t(r * cols + c)]);
        else
          REQUIRE(is_poison(v));
      }
  }
  SUBCASE("load_context.emit = false: nothing is written, the value still passes") {
    std::vector<float> t(xs.size());
    std::memset(t.data(), 0x7F, t.size() * 4);
    auto const y =
        eval_load(rf::load(xs.data(), rows, cols) | rf::tee(t.data()) | rf::scale(3.0f), false);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      REQUIRE(is_poison(t[i]));
      REQUIRE(y[i] == 3.0 * xs[i]);
    }
  }
  SUBCASE("rounding to fp16 happens in the tee only; the chain keeps full precision") {
    std::vector<__half> h(xs.size());
    auto const y =
        eval_load(rf::load(xs.data(), rows, cols) | rf::scale(1.0f / 3.0f) | rf::tee(h.data()));
    int differ = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      double const v = double(xs[i]) * double(1.0f / 3.0f);
      REQUIRE(y[i] == v);
      REQUIRE(bits(h[i]) == bits(__float2half_rn(float(v))));
      differ += double(__half2float(h[i])) != y[i];
    }
    CHECK(differ > 0);
  }
  SUBCASE("like a plain store, a tee rounds without saturating: past 65504 fp16 is inf") {
    float const big[4] = {1e5f, -7e4f, 65504.0f, 65519.0f};
    __half h[4];
    auto const y = eval_load(rf::load(big, 1, 4) | rf::tee(h));
    CHECK(__half2float(h[0]) == std::numeric_limits<float>::infinity());
    CHECK(__half2float(h[1]) == -std::numeric_limits<float>::infinity());
    CHECK(__half2float(h[2]) == 65504.0f);
    CHECK(__half2float(h[3]) == 65504.0f);
    CHECK(y[0] == 1e5); // the chain itself is not rounded
  }
}

// ---- broadcast views -----------------------------------------------------------------------

TEST_CASE("broadcast views read the operand element explicit index arithmetic names") {
  index_t const B = 2, H = 3, Q = 4, K = 5, rows = B * H * Q;
  auto const xs = random_floats(std::size_t(rows * K), 12);
  struct layout {
    char const* name;
    std::initializer_list<index_t> shape;
    index_t (*row_of)(index_t b, index_t h, index_t q); // the operand's own row
    index_t operand_rows;
  };
  layout const layouts[] = {
      {"[B,1,Q,K]", {B, 1, Q, K}, [](index_t b, index_t, index_t q) { return b * 4 + q; }, B * Q},
      {"[B,1,1,K]", {B, 1, 1, K}, [](index_t b, index_t, index_t) { return b; }, B},
      {"[1,1,Q,K]", {1, 1, Q, K}, [](index_t, index_t, index_t q) { return q; }, Q},
      {"[1,H,1,K]", {1, H, 1, K}, [](index_t, index_t h, index_t) { return h; }, H},
      {"[B,H,1,K]", {B, H, 1, K}, [](index_t b, index_t h, index_t) { return b * 3 + h; }, B * H},
      {"[1,1,1,K]", {1, 1, 1, K}, [](index_t, index_t, index_t) { return index_t(0); }, 1},
      {"[B,H,Q,K]",
       {B, H, Q, K},
       [](index_t b, index_t h, index_t q) { return (b * 3 + h) * 4 + q; },
       B * H * Q},
  };
  for (layout const& l : layouts) {
    CAPTURE(std::string(l.name));
    auto const op = random_floats(std::size_t(l.operand_rows * K), 13);
    auto const m8 = random_mask(std::size_t(l.operand_rows * K), 14);
    auto const view = rf::broadcast(op.data(), l.shape, {B, H, Q, K});
    auto const y = eval_load(rf::load(xs.data(), rows, K) | rf::add(view));
    auto const ym = eval_load(rf::load(xs.data(), rows, K) |
                              rf::mask(rf::broadcast(m8.data(), l.shape, {B, H, Q, K}), -7.0f));
    for (index_t b = 0; b < B; ++b)
      for (index_t h = 0; h < H; ++h)
        for (index_t q = 0; q < Q; ++q) {
          index_t const r = (b * H + h) * Q + q;
          index_t const o = l.row_of(b, h, q);
          REQUIRE(view.row(r) == op.data() + o * K);
          for (index_t k = 0; k < K; ++k) {
            std::size_t const i = std::size_t(r * K + k), j = std::size_t(o * K + k);
            REQUIRE(y[i] == double(xs[i]) + double(op[j]));
            REQUIRE(ym[i] == (m8[j] ? -7.0 : double(xs[i])));
          }
        }
  }
}

TEST_CASE("broadcast views of other ranks: [R,K] over itself, [1,K] over [R,K], 5-d") {
  index_t const K = 3;
  SUBCASE("rank 2") {
    index_t const R = 4;
    auto const xs = random_floats(std::size_t(R * K), 15);
    auto const op = random_floats(std::size_t(R * K), 16);
    auto const same_shape =
        eval_load(rf::load(xs.data(), R, K) | rf::add(rf::broadcast(op.data(), {R, K}, {R, K})));
    auto const one_row =
        eval_load(rf::load(xs.data(), R, K) | rf::add(rf::broadcast(op.data(), {1, K}, {R, K})));
    for (index_t r = 0; r < R; ++r)
      for (index_t k = 0; k < K; ++k) {
        std::size_t const i = std::size_t(r * K + k);
        REQUIRE(same_shape[i] == double(xs[i]) + double(op[i]));
        REQUIRE(one_row[i] == double(xs[i]) + double(op[std::size_t(k)]));
      }
  }
  SUBCASE("rank 5: [2,1,3,1,K] over [2,2,3,2,K]") {
    index_t const A = 2, Bd = 2, C = 3, D = 2, rows = A * Bd * C * D;
    auto const xs = random_floats(std::size_t(rows * K), 17);
    auto const op = random_floats(std::size_t(A * C * K), 18);
    auto const y = eval_load(rf::load(xs.data(), rows, K) |
                             rf::add(rf::broadcast(op.data(), {A, 1, C, 1, K}, {A, Bd, C, D, K})));
    for (index_t a = 0; a < A; ++a)
      for (index_t b = 0; b < Bd; ++b)
        for (index_t c = 0; c < C; ++c)
          for (index_t d = 0; d < D; ++d)
            for (index_t k = 0; k < K; ++k) {
              index_t const r = ((a * Bd + b) * C + c) * D + d;
              std::size_t const i = std::size_t(r * K + k), j = std::size_t((a * C + c) * K + k);
              REQUIRE(y[i] == double(xs[i]) + double(op[j]));
            }
  }
}

// ---- user functors -------------------------------------------------------------------------

TEST_CASE("user functors: f(x) and f(x, row, col)") {
  index_t const rows = 6, cols = 8;
  auto const xs = random_floats(std::size_t(rows * cols), 19, -40.0f, 40.0f);

  // A tanh soft-cap (Gemma-style logit capping): cap * tanh(x / cap).
  float const cap = 15.0f;
  auto softcap = [cap](float x) { return cap * std::tanh(x / cap); };
  // ALiBi-like linear bias: slope * (col - row).
  float const slope = 0.25f;
  auto alibi = [slope](float x, index_t row, index_t col) { return x + slope * float(col - row); };

  auto const y1 = eval_load(rf::load(xs.data(), rows, cols) | softcap);
  auto const y2 = eval_load(rf::load(xs.data(), rows, cols) | alibi);
  auto const y3 = eval_load(rf::load(xs.data(), rows, cols) | rf::map(alibi));
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) {
      std::size_t const i = std::size_t(r * cols + c);
      // The functor computes in float: 4 float ulps (2^-22 relative) covers tanh's error and the
      // roundings of the division and product.
      double const soft = cap * std::tanh(double(xs[i]) / cap);
      REQUIRE(std::abs(y1[i] - soft) <= 4 * 0x1p-24 * std::abs(soft) + 1e-30);
      REQUIRE(std::abs(y1[i]) < cap);
      // slope * (c - r) is exact in float; one rounding of the sum: half a float ulp.
      double const biased = double(xs[i]) + 0.25 * double(c - r);
      REQUIRE(std::abs(y2[i] - biased) <= 0x1p-24 * std::abs(biased));
      REQUIRE(y3[i] == y2[i]);
    }
  // In packs the functor sees each element's own column.
  auto const y4 = eval_load_packs<4, float>(rf::load(xs.data(), rows, cols) | alibi);
  auto const y8 = eval_load_packs<8, double>(rf::load(xs.data(), rows, cols) | alibi);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    REQUIRE(y4[i] == y2[i]);
    REQUIRE(y8[i] == y2[i]);
  }
  // A standard-library functor is a transform too.
  auto const neg = eval_load(rf::load(xs.data(), rows, cols) | std::negate<float>{});
  for (std::size_t i = 0; i < xs.size(); ++i)
    REQUIRE(neg[i] == -double(xs[i]));
}

// ---- composition order ---------------------------------------------------------------------

TEST_CASE("transforms run left to right in the order written") {
  float const x[4] = {1, 2, 3, 4};
  float const a[4] = {10, 20, 30, 40};
  bool const m[4] = {false, true, false, true};
  CHECK(eval_load(rf::load(x, 1, 4) | rf::scale(2.0f) | rf::add(a)) ==
        std::vector<double>{12, 24, 36, 48});
  CHECK(eval_load(rf::load(x, 1, 4) | rf::add(a) | rf::scale(2.0f)) ==
        std::vector<double>{22, 44, 66, 88});
  // The fill value is not scaled when the mask comes last, and is when it comes first.
  CHECK(eval_load(rf::load(x, 1, 4) | rf::mask(m, 1.0f) | rf::scale(3.0f)) ==
        std::vector<double>{3, 3, 9, 3});
  CHECK(eval_load(rf::load(x, 1, 4) | rf::scale(3.0f) | rf::mask(m, 1.0f)) ==
        std::vector<double>{3, 1, 9, 1});
  // A functor after a causal mask sees -inf; before it, its result is masked.
  auto floor_at = [](float v) { return std::max(v, -100.0f); };
  CHECK(eval_load(rf::load(x, 2, 2) | rf::causal_mask(2) | floor_at) ==
        std::vector<double>{1, -100, 3, 4});
  CHECK(eval_load(rf::load(x, 2, 2) | floor_at | rf::causal_mask(2)) ==
        std::vector<double>{1, -inf, 3, 4});
  // Two functors that do not commute.
  auto plus_one = [](float v) { return v + 1.0f; };
  auto square = [](float v) { return v * v; };
  CHECK(eval_load(rf::load(x, 1, 4) | plus_one | square) == std::vector<double>{4, 9, 16, 25});
  CHECK(eval_load(rf::load(x, 1, 4) | square | plus_one) == std::vector<double>{2, 5, 10, 17});
  CHECK(eval_load(rf::load(x, 1, 4) | plus_one | rf::scale(2.0f) | square) ==
        std::vector<double>{16, 36, 64, 100});
}

TEST_CASE("a long chain equals its formula written out, in packs of 1 and 4 and in float") {
  index_t const rows = 8, cols = 12; // rows = 2 heads x q_len 4
  auto const xs = random_floats(std::size_t(rows * cols), 20);
  auto const bs = random_floats(std::size_t(cols), 21);
  auto const as = random_floats(std::size_t(rows * cols), 22);
  auto const ms = random_mask(std::size_t(rows * cols), 23);
  auto cube = [](float v) { return v * v * v; };
  auto const expr = rf::load(xs.data(), rows, cols) | rf::bias(bs.data()) | rf::scale(0.75f) |
                    rf::add(as.data()) | rf::mask(ms.data(), -9.0f) | rf::causal_mask(4, 6) | cube;
  auto const y1 = eval_load(expr);
  auto const y4 = eval_load_packs<4, double>(expr);
  auto const yf = eval_load_packs<4, float>(expr);
  for (index_t r = 0; r < rows; ++r)
    for (index_t c = 0; c < cols; ++c) {
      std::size_t const i = std::size_t(r * cols + c);
      double v = (double(xs[i]) + double(bs[std::size_t(c)])) * 0.75 + double(as[i]);
      if (ms[i])
        v = -9.0;
      if (c > r % 4 + 6)
        v = -inf;
      float const vf = float(v);
      double const want = double(vf * vf * vf); // the functor takes and returns float
      REQUIRE(same(y1[i], want));
      REQUIRE(same(y4[i], want));
      // Float compute: three roundings before the cube; a few float ulps of the cube.
      if (std::isfinite(want))
        REQUIRE(std::abs(yf[i] - want) <= 16 * 0x1p-24 * std::abs(want));
      else
        REQUIRE(yf[i] == want);
    }
}

TEST_CASE("the engines' split: every read of a row first, then draws and chains, equals load") {
  // register_kernel issues the operand reads of all of a row's packs, then reads the input and
  // runs each pack's draw and chain; the streaming engines call load<N>. Same values, same tee
  // and keep-mask writes.
  index_t const rows = 6, cols = 16;
  auto const xs = random_floats(std::size_t(rows * cols), 30);
  auto const bs = random_floats(std::size_t(cols), 31);
  auto const as = random_floats(std::size_t(rows * cols), 32);
  auto const ms = random_mask(std::size_t(rows * cols), 33);
  std::vector<float> tee_load(std::size_t(rows * cols), -1.0f), tee_split = tee_load;
  std::vector<std::uint8_t> keep_load(std::size_t(rows * cols), 7), keep_split = keep_load;
  auto const expr = [&](float* tee, std::uint8_t* keep) {
    return rf::load(xs.data(), rows, cols) | rf::bias(bs.data()) | rf::dropout(0.25f, 3, 4, keep) |
           rf::add(as.data()) | rf::mask(ms.data(), -9.0f) | rf::tee(tee);
  };
  auto const by_load = rf::detail::bind(expr(tee_load.data(), keep_load.data()), "test");
  auto const split = rf::detail::bind(expr(tee_split.data(), keep_split.data()), "test");
  constexpr int N = 4, P = 4; // one row: 4 packs of 4
  for (index_t r = 0; r < rows; ++r) {
    rf::load_context context{true, cols};
    typename decltype(split)::template reads_type<N> reads[P];
    for (int p = 0; p < P; ++p)
      reads[p] = split.read<N>(r, p * N);
    for (int p = 0; p < P; ++p) {
      float raw[N], x[N], want[N];
      split.read_input<N>(r, p * N, raw);
      split.transform<N>(raw, r, p * N, x, context, reads[p], split.draw<N>(r, p * N, cols));
      by_load.load<N>(r, p * N, want, context);
      for (int j = 0; j < N; ++j)
        REQUIRE(same(x[j], want[j]));
    }
  }
  REQUIRE(tee_split == tee_load);
  REQUIRE(keep_split == keep_load);
  // The keep mask was written everywhere and says both things.
  REQUIRE(std::count(keep_load.begin(), keep_load.end(), std::uint8_t(7)) == 0);
  REQUIRE(std::count(keep_load.begin(), keep_load.end(), std::uint8_t(1)) > 0);
  REQUIRE(std::count(keep_load.begin(), keep_load.end(), std::uint8_t(0)) > 0);
}

TEST_CASE("a replayed chain (a row read back from its staging slot): the same values on every "
          "run with the draws made once, the tee and the keep mask written on the emitting run "
          "alone") {
  // register_kernel's rereads_staged_row runs the load chain once per phase and once for the
  // finish, with the row's draws held and load_context::emit set on the finish's run alone.
  index_t const rows = 5, cols = 16;
  auto const xs = random_floats(std::size_t(rows * cols), 40);
  auto const bs = random_floats(std::size_t(cols), 41);
  auto const as = random_floats(std::size_t(rows * cols), 42);
  std::vector<float> tee_once(std::size_t(rows * cols), -1.0f), tee_replayed = tee_once;
  std::vector<std::uint8_t> keep_once(std::size_t(rows * cols), 7), keep_replayed = keep_once;
  auto const expr = [&](float* tee, std::uint8_t* keep) {
    return rf::load(xs.data(), rows, cols) | rf::bias(bs.data()) | rf::dropout(0.3f, 5, 6, keep) |
           rf::add(as.data()) | rf::tee(tee);
  };
  using chain_t = decltype(rf::detail::bind(expr(nullptr, nullptr), "test"));
  // Replayable only where the residual travels beside the input (engine::operand_streams).
  static_assert(rf::engine::replayable_load_chain<chain_t, true>);
  static_assert(!rf::engine::replayable_load_chain<chain_t, false>);
  static_assert(
      rf::engine::replayable_load_chain<decltype(rf::load(xs.data(), rows, cols) | rf::scale(2.0f) |
                                                 rf::bias(bs.data()) | rf::dropout(0.1f, 1, 2)),
                                        false>);
  std::vector<std::uint8_t> const ms = random_mask(std::size_t(rows * cols), 43);
  static_assert(!rf::engine::replayable_load_chain<
                decltype(rf::load(xs.data(), rows, cols) | rf::mask(ms.data())), false>);
  static_assert(rf::engine::replayable_load_chain<
                decltype(rf::load(xs.data(), rows, cols) | rf::mask(ms.data())), true>);
  static_assert(rf::tees<chain_t>);
  static_assert(!rf::tees<decltype(rf::load(xs.data(), rows, cols) | rf::add(as.data()))>);
  static_assert(rf::detail::streams_operand<rf::add_node<float const>>);
  static_assert(rf::detail::streams_operand<rf::mask_node<std::uint8_t const>>);
  static_assert(!rf::detail::streams_operand<rf::bias_node<float const>>);

  auto const once = rf::detail::bind(expr(tee_once.data(), keep_once.data()), "test");
  auto const replayed = rf::detail::bind(expr(tee_replayed.data(), keep_replayed.data()), "test");
  constexpr int N = 4, P = 4; // one row: 4 packs of 4
  for (index_t r = 0; r < rows; ++r) {
    typename chain_t::template draws_type<N> draws[P];
    for (int p = 0; p < P; ++p)
      draws[p] = replayed.draw<N>(r, p * N, cols);
    for (int p = 0; p < P; ++p) {
      float raw[N], want[N];
      replayed.read_input<N>(r, p * N, raw);
      rf::load_context emit{true, cols};
      once.load<N>(r, p * N, want, emit);
      for (bool const emits : {false, false, true}) {
        rf::load_context context{emits, cols};
        float x[N];
        replayed.transform<N>(raw, r, p * N, x, context, replayed.read<N>(r, p * N), draws[p]);
        for (int j = 0; j < N; ++j)
          REQUIRE(same(x[j], want[j]));
        // Before the emitting run nothing of this pack is written.
        if (!emits)
          for (int j = 0; j < N; ++j) {
            REQUIRE(tee_replayed[std::size_t(r * cols + p * N + j)] == -1.0f);
            REQUIRE(keep_replayed[std::size_t(r * cols + p * N + j)] == 7);
          }
      }
    }
  }
  REQUIRE(tee_replayed == tee_once);
  REQUIRE(keep_replayed == keep_once);
  REQUIRE(std::count(keep_once.begin(), keep_once.end(), std::uint8_t(0)) > 0);
  REQUIRE(std::count(keep_once.begin(), keep_once.end(), std::uint8_t(1)) > 0);
}

TEST_CASE("chain_allows_pack checks every operand's alignment and row stride") {
  alignas(16) float a[64] = {};
  alignas(16) std::uint8_t m[64] = {};
  float const x[64] = {};
  auto const base = rf::load(x, 4, 8);
  CHECK(rf::detail::chain_allows_pack<4>(rf::detail::bind(base | rf::add(a), "t")));
  CHECK_FALSE(rf::detail::chain_allows_pack<4>(
      rf::detail::bind(base | rf::add(a + 1), "t"))); // 4-byte aligned
  CHECK_FALSE(rf::detail::chain_allows_pack<4>(
      rf::detail::bind(base | rf::add(a, 9), "t"))); // odd row stride
  CHECK(rf::detail::chain_allows_pack<1>(rf::detail::bind(base | rf::add(a + 1, 9), "t")));
  CHECK(rf::detail::chain_allows_pack<4>(
      rf::detail::bind(base | rf::mask(m + 4), "t"))); // 4 bytes suffice
  CHECK_FALSE(rf::detail::chain_allows_pack<4>(rf::detail::bind(base | rf::mask(m + 2), "t")));
  CHECK_FALSE(rf::detail::chain_allows_pack<4>(
      rf::detail::bind(base | rf::scale(2) | rf::bias(a + 2), "t")));
  CHECK_FALSE(rf::detail::chain_allows_pack<4>(rf::detail::bind(base | rf::tee(a + 3), "t")));
  CHECK(rf::detail::chain_allows_pack<4>(
      rf::detail::bind(base | rf::scale(2) | rf::causal_mask(2), "t")));
}

// ---- through the host reference ops --------------------------------------------------------

TEST_CASE("load transforms reach the reference ops: softmax of a scaled, causally masked row") {
  float const x[6] = {2, 4, 6, 1, 3, 5};
  float y[6];
  std::memset(y, 0x7F, sizeof y);
  // Row 0 keeps column 0 only; row 1 keeps columns 0 and 1: softmax(0.5 * {1, 3}).
  auto const v = rf::reference::softmax(rf::load(x, 2, 3) | rf::scale(0.5f) | rf::causal_mask(2),
                                        rf::store(y));
  double const e = std::exp(1.0); // softmax({0.5, 1.5}) = {1, e} / (1 + e)
  CHECK(v[0] == 1.0);
  CHECK(v[1] == 0.0);
  CHECK(v[2] == 0.0);
  CHECK(v[3] == doctest::Approx(1.0 / (1.0 + e)).epsilon(1e-15));
  CHECK(v[4] == doctest::Approx(e / (1.0 + e)).epsilon(1e-15));
  CHECK(v[5] == 0.0);
  for (int i = 0; i < 6; ++i)
    CHECK(y[i] == float(v[i]));
}

// ---- store side ----------------------------------------------------------------------------

TEST_CASE("store transforms: scale and user functors, in order, through store<N>") {
  index_t const rows = 3, cols = 8;
  auto const ys = random_floats(std::size_t(rows * cols), 24);
  std::vector<float> out(ys.size());
  auto run = [&](auto const& store_expr, int pack) {
    std::memset(out.data(), 0x7F, out.size() * 4);
    auto const bound = rf::detail::bind(store_expr, "test", rows, cols);
    rf::store_context<double> context{cols, 0.0};
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; c += pack) {
        if (pack == 1) {
          double v[1] = {ys[std::size_t(r * cols + c)]};
          bound.template store<1>(r, c, v, context);
        } else {
          double v[4];
          for (int j = 0; j < 4; ++j)
            v[j] = ys[std::size_t(r * cols + c + j)];
          bound.template store<4>(r, c, v, context);
        }
      }
  };
  auto shift = [](float y, index_t row, index_t col) { return y + float(100 * row + col); };
  for (int pack : {1, 4}) {
    run(rf::store(out.data()) | rf::scale(2.0f) | shift, pack);
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; ++c) {
        std::size_t const i = std::size_t(r * cols + c);
        REQUIRE(out[i] == 2.0f * ys[i] + float(100 * r + c));
      }
    run(rf::store(out.data()) | shift | rf::scale(2.0f), pack);
    for (index_t r = 0; r < rows; ++r)
      for (index_t c = 0; c < cols; ++c) {
        std::size_t const i = std::size_t(r * cols + c);
        REQUIRE(out[i] == float(2.0 * double(ys[i] + float(100 * r + c))));
      }
  }
}

TEST_CASE("cast<T>(scale, &amax): amax is max |y| before the scale, folded with *amax") {
  SUBCASE("hand-computed through store<4>") {
    float out[4];
    float amax = 0.0f;
    auto const bound =
        rf::detail::bind(rf::store(out) | rf::cast<float>(0.5f, &amax), "test", 1, 4);
    rf::store_context<double> context{4, 0.0};
    double y[4] = {1.0, -3.0, 2.0, 0.5};
    bound.store<4>(0, 0, y, context);
    CHECK(out[0] == 0.5f);
    CHECK(out[1] == -1.5f);
    CHECK(out[2] == 1.0f);
    CHECK(out[3] == 0.25f);
    CHECK(context.amax == 3.0); // not 1.5
    CHECK(bound.amax_output() == &amax);
  }
  SUBCASE("through the reference softmax, fp8 e4m3 output") {
    index_t const rows = 4, cols = 16;
    auto const xs = random_floats(std::size_t(rows * cols), 25);
    std::vector<__nv_fp8_e4m3> out(xs.size());
    std::vector<float> plain(xs.size());
    auto const p = rf::reference::softmax(rf::load(xs.data(), rows, cols), rf::store(plain.data()));
    double const max_p = *std::max_element(p.begin(), p.end());
    for (float initial : {0.0f, 0.01f, 5.0f}) {
      CAPTURE(initial);
      std::memset(static_cast<void*>(out.data()), 0x7F, out.size()); // 0x7F is e4m3 NaN
      float amax = initial;
      float const s = 64.0f;
      auto const v =
          rf::reference::softmax(rf::load(xs.data(), rows, cols),
                                 rf::store(out.data()) | rf::cast<__nv_fp8_e4m3>(s, &amax));
      CHECK(amax == std::max(initial, float(max_p)));
      for (std::size_t i = 0; i < xs.size(); ++i) {
        REQUIRE(v[i] == p[i] * 64.0); // the returned values are after the scale
        // e4m3 has 3 mantissa bits: the written value is within half an ulp (2^-4 relative,
        // 2^-10 absolute in the subnormal range) of the scaled value.
        double const w = double(float(out[i]));
        REQUIRE(std::abs(w - v[i]) <= std::max(std::abs(v[i]) * 0x1p-4, 0x1p-10));
      }
    }
  }
  SUBCASE("a store scale before the cast is part of amax; NaN is left out of amax") {
    float const xs[8] = {1, 2, 3, 4, 1, std::nanf(""), 2, 2};
    float out[8];
    float amax = 0.0f;
    auto const v = rf::reference::softmax(rf::load(xs, 2, 4), rf::store(out) | rf::scale(2.0f) |
                                                                  rf::cast<float>(0.25f, &amax));
    double const e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0);
    double const top = e3 / (1 + e1 + e2 + e3); // row 0's largest probability; row 1 is NaN
    CHECK(amax == float(2.0 * top));
    CHECK(v[3] == doctest::Approx(2.0 * top * 0.25).epsilon(1e-15));
    for (int i = 4; i < 8; ++i)
      CHECK(std::isnan(v[std::size_t(i)]));
    for (int i = 4; i < 8; ++i)
      CHECK(std::isnan(out[i]));
  }
}

TEST_CASE("cast saturation: past the largest finite value becomes it, or overflows without") {
  // softmax of `cols` equal values is exactly 1 / cols; the cast scales it past each format's
  // range (for bf16 only FLT_MAX * 1 is far enough: 1 column).
  float const xs[4] = {5, 5, 5, 5};
  auto check = [&](auto t, float scale, index_t cols, double max, bool overflow_is_nan) {
    using T = decltype(t);
    std::string const name = rf::element_traits<T>::name;
    CAPTURE(name);
    double const value = double(scale) / double(cols);
    REQUIRE(value > max);
    T out[4];
    auto const sat = rf::reference::softmax(rf::load(xs, 1, cols),
                                            rf::store(out) | rf::cast<T>(scale, nullptr, true));
    for (index_t i = 0; i < cols; ++i) {
      CHECK(sat[std::size_t(i)] == max); // the returned value is clamped where it saturates
      CHECK(rf::detail::widen<double>(out[i]) == max);
    }
    auto const raw = rf::reference::softmax(rf::load(xs, 1, cols),
                                            rf::store(out) | rf::cast<T>(scale, nullptr, false));
    for (index_t i = 0; i < cols; ++i) {
      CHECK(raw[std::size_t(i)] == value); // not clamped
      double const w = rf::detail::widen<double>(out[i]);
      if (overflow_is_nan)
        CHECK(std::isnan(w));
      else
        CHECK(w == inf);
    }
    // In range, saturation changes nothing: (1 / cols) * cols = 1.
    auto const one =
        rf::reference::softmax(rf::load(xs, 1, cols), rf::store(out) | rf::cast<T>(float(cols)));
    for (index_t i = 0; i < cols; ++i)
      CHECK(rf::detail::widen<double>(out[i]) == 1.0);
    CHECK(one[0] == 1.0);
  };
  check(__nv_fp8_e4m3{}, 4000.0f, 4, 448.0, true);
  check(__nv_fp8_e5m2{}, 1e6f, 4, 57344.0, false);
  check(__half{}, 1e6f, 4, 65504.0, false);
  check(__nv_bfloat16{}, std::numeric_limits<float>::max(), 1,
        rf::element_traits<__nv_bfloat16>::max_finite, false);
  // A saturating cast keeps NaN.
  float const nan_row[2] = {1.0f, std::nanf("")};
  __nv_fp8_e4m3 out8[2];
  auto const v =
      rf::reference::softmax(rf::load(nan_row, 1, 2), rf::store(out8) | rf::cast<__nv_fp8_e4m3>());
  CHECK(std::isnan(v[0]));
  CHECK(std::isnan(float(out8[0])));
  CHECK(std::isnan(float(out8[1])));
  // cast saturates by default, with scale 1 and no amax.
  CHECK(rf::cast<__half>().saturate);
  CHECK(rf::cast<__half>().scale == 1.0f);
  CHECK(rf::cast<__half>().amax == nullptr);
}

TEST_CASE("a plain store rounds like CUDA (overflow to inf); dropout then cast") {
  float const xs[4] = {5, 5, 5, 5};
  __half out[4];
  auto const v = rf::reference::softmax(rf::load(xs, 1, 4), rf::store(out) | rf::scale(1e6f));
  for (int i = 0; i < 4; ++i) {
    CHECK(v[std::size_t(i)] == 250000.0);
    CHECK(__half2float(out[i]) == std::numeric_limits<float>::infinity());
  }
  // dropout before the cast: amax sees the kept, rescaled values.
  index_t const rows = 2, cols = 8;
  auto const x = random_floats(std::size_t(rows * cols), 26);
  std::vector<__half> h(x.size());
  std::vector<std::uint8_t> keep(x.size());
  float amax = 0.0f;
  auto const d = rf::reference::softmax(rf::load(x.data(), rows, cols),
                                        rf::store(h.data()) | rf::dropout(0.5f, 3, 4, keep.data()) |
                                            rf::cast<__half>(1.0f, &amax));
  double top = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!keep[i])
      REQUIRE(d[i] == 0.0);
    top = std::max(top, d[i]);
  }
  CHECK(top > 0.0);
  CHECK(amax == float(top));
}
