// softmax and log-softmax backward: every width of the grid, fp32/fp16/bf16 y, dy and dx (and
// mixed), dense and with ld > cols and every view one element off its alignment, the automatic
// plan and every engine forced; fully masked rows (dx = 0), NaN rows (NaN stays in its row), and
// the attention backward chain (dy with the forward's dropout replayed, dx scaled). dx poisoned
// before every run, every element checked against the double reference of backward_support.cuh.
#include <span>

#include "backward_support.cuh"
#include "width_grid.hpp"

namespace {

long rows_for(long cols) {
  if (test::small_mode())
    return std::max(2L, std::min(64L, (1L << 14) / cols));
  return std::max(3L, std::min(3000L, (1L << 20) / cols));
}

/// Fills [rows, cols] at `offset` with stride ld with a softmax (or log-softmax) output of random
/// logits in [-4, 4) rounded to T, the padding with NaN (a kernel that read it would show).
template <class T>
void fill_output(std::vector<T>& v, bool log, long rows, long cols, long ld, long offset,
                 std::mt19937& rng) {
  std::fill(v.begin(), v.end(), rf::detail::narrow<T>(std::nanf("")));
  std::uniform_real_distribution<double> logit(-4.0, 4.0);
  std::vector<double> z(static_cast<std::size_t>(cols));
  for (long r = 0; r < rows; ++r) {
    double m = -INFINITY, s = 0.0;
    for (auto& x : z)
      m = std::max(m, x = logit(rng));
    for (double x : z)
      s += std::exp(x - m);
    for (long c = 0; c < cols; ++c) {
      double const y =
          log ? z[std::size_t(c)] - m - std::log(s) : std::exp(z[std::size_t(c)] - m) / s;
      v[std::size_t(offset + r * ld + c)] = rf::detail::narrow<T>(float(y));
    }
  }
}

template <class T>
void fill_gradient(std::vector<T>& v, long rows, long cols, long ld, long offset,
                   std::mt19937& rng) {
  std::fill(v.begin(), v.end(), rf::detail::narrow<T>(std::nanf("")));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (long r = 0; r < rows; ++r)
    for (long c = 0; c < cols; ++c)
      v[std::size_t(offset + r * ld + c)] = rf::detail::narrow<T>(dist(rng));
}

/// A view's placement: ld and the element offset of its first element (1 = off alignment).
struct layout {
  long ld, offset;
};

template <class Load, class Grad, class Store>
rf::plan run(bool log, Load const& y, Grad const& dy, Store const& dx, rf::launch_options o) {
  return log ? rf::log_softmax_backward(y, dy, dx, nullptr, o)
             : rf::softmax_backward(y, dy, dx, nullptr, o);
}

template <class Y, class DY, class DX> void check_width(bool log, long cols, std::mt19937& rng) {
  long const rows = rows_for(cols);
  for (layout const l : {layout{cols, 0}, layout{cols + 3, 1}}) {
    CAPTURE(log);
    CAPTURE(cols);
    CAPTURE(rows);
    CAPTURE(l.ld);
    CAPTURE(l.offset);
    std::size_t const size = std::size_t(l.offset + rows * l.ld);
    test::mirrored<Y> y(size);
    test::mirrored<DY> dy(size);
    test::mirrored<DX> dx(size);
    fill_output(y.host, log, rows, cols, l.ld, l.offset, rng);
    fill_gradient(dy.host, rows, cols, l.ld, l.offset, rng);
    y.upload();
    dy.upload();
    auto const want = bwd_test::softmax_backward(
        log, bwd_test::values(rf::load(y.h(l.offset), rows, cols, l.ld)),
        bwd_test::values(rf::load(dy.h(l.offset), rows, cols, l.ld)), rows, cols);
    test::for_each_plan([&](rf::launch_options options) {
      test::poison(dx.host);
      dx.upload();
      rf::plan const p = run(log, rf::load(static_cast<Y const*>(y.d(l.offset)), rows, cols, l.ld),
                             rf::load(static_cast<DY const*>(dy.d(l.offset)), rows, cols, l.ld),
                             rf::store(dx.d(l.offset), l.ld), options);
      // Rows one element off the grid, y, dy and dx sharing their layout: the automatic plan runs
      // phased packs wherever a register row holds the width.
      if (options.dry_run && options.engine == rf::engine_kind::automatic && options.pack == 0 &&
          l.offset != 0 && cols >= 256 && cols <= 32768)
        CHECK(p.phased);
      if (options.dry_run)
        return p;
      test::sync_and_check();
      INFO(rf::explain(p));
      CHECK_MATCHES(bwd_test::compare(dx.download(), want, rows, cols, l.ld, l.offset));
      return p;
    });
  }
}

template <class Y, class DY, class DX> void check_all_widths(bool log, unsigned seed) {
  std::mt19937 rng(seed);
  for (long cols : test::shape_widths())
    check_width<Y, DY, DX>(log, cols, rng);
}

} // namespace

TEST_CASE("softmax_backward fp32 over every width and engine") {
  check_all_widths<float, float, float>(false, 101);
}
TEST_CASE("softmax_backward fp16 over every width and engine") {
  check_all_widths<__half, __half, __half>(false, 102);
}
TEST_CASE("softmax_backward bf16 y, fp32 dy, bf16 dx over every width and engine") {
  check_all_widths<__nv_bfloat16, float, __nv_bfloat16>(false, 103);
}
TEST_CASE("log_softmax_backward fp32 over every width and engine") {
  check_all_widths<float, float, float>(true, 104);
}
TEST_CASE("log_softmax_backward bf16 over every width and engine") {
  check_all_widths<__nv_bfloat16, __nv_bfloat16, __nv_bfloat16>(true, 105);
}
TEST_CASE("log_softmax_backward fp16 y and dy, fp32 dx over every width and engine") {
  check_all_widths<__half, __half, float>(true, 106);
}

/// Fully masked rows (y = 0 everywhere, resp. -inf) give dx = 0 exactly, whatever dy holds there
/// (-inf included, as a dy chain replaying the mask gives); a NaN in dy at an unmasked position
/// makes its row NaN and no other; partly masked rows give 0 at the masked positions.
TEST_CASE("backward: masked rows give 0, NaN stays in its row, on every engine") {
  std::mt19937 rng(107);
  for (bool log : {false, true}) {
    for (long cols : {33L, 1024L, 5000L, 70000L}) {
      long const rows = 8;
      CAPTURE(log);
      CAPTURE(cols);
      test::mirrored<__half> y(std::size_t(rows * cols)), dy(y.host.size()), dx(y.host.size());
      fill_output(y.host, log, rows, cols, cols, 0, rng);
      fill_gradient(dy.host, rows, cols, cols, 0, rng);
      __half const masked = rf::detail::narrow<__half>(log ? -INFINITY : 0.0f);
      for (long c = 0; c < cols; ++c) {
        y.host[std::size_t(1 * cols + c)] = masked; // row 1 fully masked
        if (c % 3 == 0)
          dy.host[std::size_t(1 * cols + c)] = rf::detail::narrow<__half>(-INFINITY);
        if (c > cols / 2)
          y.host[std::size_t(5 * cols + c)] = masked; // row 5: a causal-like tail
      }
      long top = 0; // dy's NaN where y is largest: never an underflowed (masked) position
      for (long c = 0; c < cols; ++c)
        if (rf::detail::widen<float>(y.host[std::size_t(3 * cols + c)]) >
            rf::detail::widen<float>(y.host[std::size_t(3 * cols + top)]))
          top = c;
      dy.host[std::size_t(3 * cols + top)] = rf::detail::narrow<__half>(std::nanf(""));
      y.upload();
      dy.upload();
      auto const want =
          bwd_test::softmax_backward(log, bwd_test::values(rf::load(y.h(), rows, cols)),
                                     bwd_test::values(rf::load(dy.h(), rows, cols)), rows, cols);
      // The reference itself: row 1 all zeros, NaN in row 3 only.
      long nan_rows[rows] = {};
      for (long i = 0; i < rows * cols; ++i)
        nan_rows[i / cols] += std::isnan(want.exact[std::size_t(i)]);
      for (long c = 0; c < cols; ++c)
        REQUIRE(want.exact[std::size_t(1 * cols + c)] == 0.0);
      for (long r = 0; r < rows; ++r)
        REQUIRE((nan_rows[r] > 0) == (r == 3));
      test::for_each_plan([&](rf::launch_options options) {
        test::poison(dx.host);
        dx.upload();
        rf::plan const p = run(log, rf::load(static_cast<__half const*>(y.d()), rows, cols),
                               rf::load(static_cast<__half const*>(dy.d()), rows, cols),
                               rf::store(dx.d()), options);
        if (options.dry_run)
          return p;
        test::sync_and_check();
        INFO(rf::explain(p));
        auto const got = dx.download();
        CHECK_MATCHES(bwd_test::compare(got, want, rows, cols, cols, 0));
        for (long c = 0; c < cols; ++c) // exactly +0 or -0, not merely within tolerance
          CHECK(rf::detail::widen<float>(got[std::size_t(1 * cols + c)]) == 0.0f);
        return p;
      });
    }
  }
}

/// The attention pipeline's backward: the forward P = dropout(softmax(S * scale + causal mask))
/// stored y = softmax(...) before its dropout; the backward reads y, and dP through the same
/// dropout replayed on the load side (same seed, same offset), and writes dS scaled by the
/// forward's scale, in bf16.
TEST_CASE("softmax_backward: the attention chain (dropout replayed on dy, scaled dx)") {
  std::mt19937 rng(108);
  float const p_drop = 0.2f, scale = 0.125f;
  std::uint64_t const seed = 77, offset = 1234;
  for (long cols : {64L, 1000L, 4096L, 40000L}) {
    long const q_len = cols, rows = 2 * q_len > 512 ? 512 : 2 * q_len;
    CAPTURE(cols);
    test::mirrored<__nv_bfloat16> y(std::size_t(rows * cols)), dp(y.host.size()), ds(y.host.size());
    // y: softmax rows under a causal mask (row r sees columns 0 .. r % q_len), exact zeros past it.
    std::uniform_real_distribution<double> logit(-4.0, 4.0);
    for (long r = 0; r < rows; ++r) {
      long const visible = r % q_len + 1;
      std::vector<double> z(static_cast<std::size_t>(visible));
      double m = -INFINITY, s = 0.0;
      for (auto& x : z)
        m = std::max(m, x = logit(rng));
      for (double x : z)
        s += std::exp(x - m);
      for (long c = 0; c < cols; ++c)
        y.host[std::size_t(r * cols + c)] = rf::detail::narrow<__nv_bfloat16>(
            c < visible ? float(std::exp(z[std::size_t(c)] - m) / s) : 0.0f);
    }
    fill_gradient(dp.host, rows, cols, cols, 0, rng);
    y.upload();
    dp.upload();
    auto want = bwd_test::softmax_backward(
        false, bwd_test::values(rf::load(y.h(), rows, cols)),
        bwd_test::values(rf::load(dp.h(), rows, cols) | rf::dropout(p_drop, seed, offset)), rows,
        cols);
    for (std::size_t i = 0; i < want.exact.size(); ++i) {
      want.exact[i] *= scale;
      want.slack[i] *= scale;
    }
    test::for_each_plan([&](rf::launch_options options) {
      test::poison(ds.host);
      ds.upload();
      rf::plan const p =
          rf::softmax_backward(rf::load(static_cast<__nv_bfloat16 const*>(y.d()), rows, cols),
                               rf::load(static_cast<__nv_bfloat16 const*>(dp.d()), rows, cols) |
                                   rf::dropout(p_drop, seed, offset),
                               rf::store(ds.d()) | rf::scale(scale), nullptr, options);
      if (options.dry_run)
        return p;
      test::sync_and_check();
      INFO(rf::explain(p));
      CHECK_MATCHES(bwd_test::compare(ds.download(), want, rows, cols, cols, 0));
      return p;
    });
  }
}
