// Shared by the layernorm / rmsnorm GPU tests: the width grid, the tolerances of normalised
// outputs, the checks of the saved statistics, and the loop over every plan.
//
// Tolerances, per output element against the exact (double) value e of the host reference:
//
//   fp32 outputs:          |y - e| <= 1e-5 |e|    + A
//   16-bit and fp8 outputs: |y - e| <= ulp_T(e)   + A,   A = 16 u max|e|, u = 2^-24
//
// The relative part: fp32 results within 1e-5 of the double reference (the issue's target);
// 16-bit and fp8 outputs within one unit in the last place of their type (the kernel's fp32
// arithmetic is far finer than the output's rounding, so only that rounding remains).
//
// The absolute part A covers outputs near zero, where a norm's result is a difference. fp32
// arithmetic errs by a few u relative to the terms an output is made of, not to the output:
// y = (x - mean) * rstd * gamma + beta, with x from a load chain. Counting u of max|e| (which
// bounds |x_hat * gamma| and |beta| up to a small factor for the data here):
//   - each addition of the load chain (bias, residual): u |x| rstd ~ u |x_hat|, two of them;
//   - the mean, carried as hi + lo, is known to ~2u of the row's spread: 2u in x_hat;
//   - x - hi (exact near a large mean, else u |x - hi|) and the fma with rstd: 2u;
//   - rstd (rsqrtf is within 2 ulp, the m2 sum a few u): ~3u of |x_hat * gamma|;
//   - the affine fma: u of the result.
// That is ~10u; A = 16u leaves room and is still over 100 times smaller than the 5e-4
// standard deviations that a plain fp32 mean loses on rows of mean 1e4, which the numerics test
// would catch. For 16-bit outputs A matters only below |e| ~ 2^-10 max|e| (fp16) or 2^-13
// max|e| (bf16), where ulp_T(e) is finer than fp32 arithmetic on O(1) terms can be: test::compare's
// plain 1-ulp rule would fail there on correct results (an output of 1e-5 after bias +
// residual adds in fp32 carries ~5e-7 of rounding, 8 fp16 subnormal ulps).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include <boost/hana/for_each.hpp>
#include <boost/hana/length.hpp>
#include <boost/hana/tuple.hpp>

#include "support.cuh"
#include "width_grid.hpp"

namespace norm_test {

/// About 2^20 elements per case, at least a few rows, and thousands for the narrow widths
/// (test::small_mode(): 2^14, at least 2 rows, at most 64).
inline long rows_for(long cols) {
  if (test::small_mode())
    return std::max(2L, std::min(64L, (1L << 14) / cols));
  return std::max(3L, std::min(3000L, (1L << 20) / cols));
}

/// A view's placement: ld and the element offset of its first element (1 = off alignment).
struct layout {
  long ld, offset;
};

/// A = 16 u of the largest finite |exact| value of the case (see the top of this file).
inline double absolute_term(std::vector<double> const& exact) {
  double m = 0.0;
  for (double e : exact)
    if (std::isfinite(e))
      m = std::max(m, std::fabs(e));
  return 16.0 * 0x1p-24 * m;
}

template <class T> double tolerance(double exact, double absolute) {
  if constexpr (std::is_same_v<T, float>)
    return 1e-5 * std::fabs(exact) + absolute;
  else
    return test::ulp<T>(exact) + absolute;
}

/// Every element of a [rows, cols] output (row stride ld, first element at offset) against the
/// exact values, with the tolerance above (test::compare_within: poison never passes).
template <class T>
test::mismatch_report compare(std::vector<T> const& got, std::vector<double> const& exact,
                              long rows, long cols, long ld, long offset, double absolute) {
  return test::compare_within(got, exact, rows, cols, ld, offset,
                              [&](double e) { return tolerance<T>(e, absolute); });
}

/// Saved statistics (rows + 1 elements, the last must stay poisoned: one per row, no more)
/// against the reference's (its double statistics rounded to fp32):
///  - rstd within 1e-5 relative: every output is proportional to it, so this is the output
///    bound itself;
///  - the mean within 2^-22 relative plus 1e-6 of the row's spread 1 / rstd: an output at the
///    mean then moves by at most 1e-6, and the mean of a row far from zero is the true one
///    (hi + lo), not a shift or the mean of the deviations.
/// `mean` may be empty (rmsnorm). A NaN reference statistic needs a NaN; a row with an
/// infinity has an infinite or NaN mean (the reference says inf, the kernels' inf - inf NaN),
/// either is accepted there. Never the poison.
inline test::mismatch_report compare_stats(std::vector<float> const& mean,
                                           std::vector<float> const& mean_ref,
                                           std::vector<float> const& rstd,
                                           std::vector<float> const& rstd_ref, long rows) {
  test::mismatch_report r;
  auto fail = [&](char const* what, long row, double got, double want) {
    if (r.bad++ == 0) {
      std::ostringstream s;
      s.precision(10);
      s << what << " of row " << row << ": got " << got << ", reference " << want;
      r.first = s.str();
    }
  };
  for (long i = 0; i < rows; ++i) {
    double const want_rstd = rstd_ref[std::size_t(i)], got_rstd = rstd[std::size_t(i)];
    ++r.checked;
    bool const rstd_ok =
        !test::is_poison(rstd[std::size_t(i)]) &&
        (std::isnan(want_rstd) ? std::isnan(got_rstd)
                               : std::fabs(got_rstd - want_rstd) <= 1e-5 * std::fabs(want_rstd));
    if (!rstd_ok)
      fail("rstd", i, got_rstd, want_rstd);
    if (mean.empty())
      continue;
    double const want = mean_ref[std::size_t(i)], got = mean[std::size_t(i)];
    ++r.checked;
    double const spread = 1.0 / want_rstd;
    bool const mean_ok =
        !test::is_poison(mean[std::size_t(i)]) &&
        (std::isnan(want)   ? std::isnan(got)
         : std::isinf(want) ? !std::isfinite(got)
                            : std::fabs(got - want) <= 0x1p-22 * std::fabs(want) + 1e-6 * spread);
    if (!mean_ok)
      fail("mean", i, got, want);
  }
  if (!test::is_poison(rstd[std::size_t(rows)]))
    fail("rstd past the last row", rows, rstd[std::size_t(rows)], 0);
  if (!mean.empty() && !test::is_poison(mean[std::size_t(rows)]))
    fail("mean past the last row", rows, mean[std::size_t(rows)], 0);
  return r;
}

/// Fills the [rows, cols] view at `offset` with stride `ld` with dist(rng) rounded to T and the
/// rest of the buffer (the padding past cols, the element before an offset view) with NaN: a
/// kernel that read outside the view would turn its row to NaN.
template <class T, class Dist>
void fill_view(std::vector<T>& v, long rows, long cols, long ld, long offset, std::mt19937& rng,
               Dist dist) {
  std::fill(v.begin(), v.end(), rf::detail::narrow<T>(std::nanf("")));
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j)
      v[std::size_t(offset + i * ld + j)] = rf::detail::narrow<T>(dist(rng));
}

/// The two ops behind one interface, so the tests run either: `reference` and `run` take the
/// same expressions and affine argument, and the mean / rstd outputs (mean ignored by rmsnorm).
struct layernorm_op {
  static constexpr char const* name = "layernorm";
  static constexpr bool saves_mean = true;
  static constexpr float eps = 1e-5f;
  template <class L, class S, class A>
  static std::vector<double> reference(L const& load, S const& store, A const& affine, float* mean,
                                       float* rstd) {
    return rf::reference::layernorm(load, store, affine, eps, rf::row_stats{mean, rstd});
  }
  template <class L, class S, class A>
  static rf::plan run(L const& load, S const& store, A const& affine, float* mean, float* rstd,
                      rf::launch_options options) {
    return rf::layernorm(load, store, affine, eps, nullptr, rf::row_stats{mean, rstd}, options);
  }
};

struct rmsnorm_op {
  static constexpr char const* name = "rmsnorm";
  static constexpr bool saves_mean = false;
  static constexpr float eps = 1e-6f;
  template <class L, class S, class A>
  static std::vector<double> reference(L const& load, S const& store, A const& affine, float*,
                                       float* rstd) {
    return rf::reference::rmsnorm(load, store, affine, eps, rstd);
  }
  template <class L, class S, class A>
  static rf::plan run(L const& load, S const& store, A const& affine, float*, float* rstd,
                      rf::launch_options options) {
    return rf::rmsnorm(load, store, affine, eps, nullptr, rstd, options);
  }
};

/// The buffers of one shape test case: input, output, gamma, beta (each one element longer
/// where the layout is off alignment), saved statistics for the kernel and the reference.
template <class In, class Out, class G, class B> struct shape_buffers {
  long rows, cols;
  layout l;
  test::mirrored<In> x;
  test::mirrored<Out> y, y_ref;
  test::mirrored<G> gamma;
  test::mirrored<B> beta;
  test::mirrored<float> mean, rstd, mean_ref, rstd_ref;

  shape_buffers(long r, long c, layout lay, std::mt19937& rng)
      : rows(r), cols(c), l(lay), x(std::size_t(lay.offset + r * lay.ld)), y(x.host.size()),
        y_ref(x.host.size()), gamma(std::size_t(lay.offset + c)), beta(std::size_t(lay.offset + c)),
        mean(std::size_t(r + 1)), rstd(std::size_t(r + 1)), mean_ref(std::size_t(r + 1)),
        rstd_ref(std::size_t(r + 1)) {
    fill_view(x.host, rows, cols, l.ld, l.offset, rng,
              std::uniform_real_distribution<float>(-4.0f, 4.0f));
    fill_view(gamma.host, 1, cols, cols, l.offset, rng,
              std::uniform_real_distribution<float>(-1.5f, 1.5f));
    fill_view(beta.host, 1, cols, cols, l.offset, rng,
              std::uniform_real_distribution<float>(-1.0f, 1.0f));
    x.upload();
    gamma.upload();
    beta.upload();
  }
};

/// One layout of one width with one affine variant: the reference once, then every plan, each
/// with its outputs and statistics poisoned first. make_affine(gamma, beta) builds the affine
/// argument from host or device pointers.
template <class Op, class In, class Out, class G, class B, class MakeAffine>
void check_shape(shape_buffers<In, Out, G, B>& b, MakeAffine make_affine) {
  long const rows = b.rows, cols = b.cols, ld = b.l.ld, off = b.l.offset;
  test::poison(b.mean_ref.host);
  test::poison(b.rstd_ref.host);
  auto const exact = Op::reference(
      rf::load(b.x.h(off), rows, cols, ld), rf::store(b.y_ref.h(off), ld),
      make_affine(static_cast<G const*>(b.gamma.h(off)), static_cast<B const*>(b.beta.h(off))),
      b.mean_ref.h(), b.rstd_ref.h());
  double const absolute = absolute_term(exact);
  test::for_each_plan([&](rf::launch_options options) {
    test::poison(b.y.host);
    b.y.upload();
    test::poison(b.mean.host);
    b.mean.upload();
    test::poison(b.rstd.host);
    b.rstd.upload();
    rf::plan const p = Op::run(
        rf::load(static_cast<In const*>(b.x.d(off)), rows, cols, ld), rf::store(b.y.d(off), ld),
        make_affine(static_cast<G const*>(b.gamma.d(off)), static_cast<B const*>(b.beta.d(off))),
        b.mean.d(), b.rstd.d(), options);
    if (options.dry_run)
      return p;
    test::sync_and_check();
    INFO(rf::explain(p));
    CHECK_MATCHES(compare(b.y.download(), exact, rows, cols, ld, off, absolute));
    CHECK_MATCHES(compare_stats(Op::saves_mean ? b.mean.download() : std::vector<float>{},
                                b.mean_ref.host, b.rstd.download(), b.rstd_ref.host, rows));
    return p;
  });
}

/// Every width of the grid in two layouts (dense; ld = cols + 3 with every view one element
/// off its alignment). The affine variant (an index into `variants`, a hana tuple of
/// make_affine functions) rotates with the width and the layout, so each variant meets both
/// layouts and a share of the widths without multiplying the run time.
template <class Op, class In, class Out, class G, class B, class Variants>
void check_all_widths(Variants variants, unsigned seed) {
  std::mt19937 rng(seed);
  constexpr int count = int(decltype(boost::hana::length(variants))::value);
  int width_index = 0;
  for (long cols : test::shape_widths()) {
    ++width_index;
    for (layout const l : {layout{cols, 0}, layout{cols + 3, 1}}) {
      int const variant = (width_index + int(l.offset)) % count;
      long const rows = rows_for(cols);
      CAPTURE(cols);
      CAPTURE(rows);
      CAPTURE(l.ld);
      CAPTURE(l.offset);
      CAPTURE(variant);
      shape_buffers<In, Out, G, B> b(rows, cols, l, rng);
      int i = 0;
      boost::hana::for_each(variants, [&](auto make_affine) {
        if (i++ == variant)
          check_shape<Op>(b, make_affine);
      });
    }
  }
}

} // namespace norm_test
